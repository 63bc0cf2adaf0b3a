// Writing files so that a failed or interrupted write never leaves a half file behind.
//
//   std::string err = ws::write_file_atomic("out.png", bytes);
//   if (!err.empty()) show(err);   // e.g. "cannot write /root/x/out.png: No such file or directory"
//
// The bytes go to a temporary file next to the target, are flushed, and the temporary is renamed
// over the target (rename is atomic on POSIX file systems). Only regular files are written: a
// target that is a device, a FIFO, a socket or a directory is refused with a message saying what
// it is (renaming over /dev/full would replace the device node). A symbolic link is followed: the
// file it points to is replaced, the link stays. An existing file keeps its permissions and its
// owner; one with other names (hard links), or whose owner the new copy cannot be given (another
// user's file), is written in place instead, so that every name sees the new contents — from a
// flushed copy next to it, which a failure midway keeps and names.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

namespace ws {

// Returns an empty string on success, otherwise a message that names the path and the reason.
std::string write_file_atomic(const std::filesystem::path& path, std::span<const uint8_t> bytes);
std::string write_file_atomic(const std::filesystem::path& path, const std::string& text);

// Reads a whole regular file of at most `max_bytes`. On failure returns false and sets `error` to a
// message naming the path: a FIFO, a device, a socket or a directory is refused without reading
// from it (a FIFO would block, /dev/zero never ends), and so is a file over the cap.
inline constexpr uint64_t kMaxReadBytes = uint64_t(4) << 30;
bool read_file(const std::filesystem::path& path, std::string& out, std::string& error,
               uint64_t max_bytes = kMaxReadBytes);

}  // namespace ws
