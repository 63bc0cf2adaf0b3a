// Messages over a stream socket between warpscope and its run process: a frame is
// u32 kind | u64 id | u64 size | size bytes of payload. Both ends use these; the client side
// (child_process.h) adds time limits, the server side (server.h) a cancel per request.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

namespace ws::isolation {

enum class Kind : uint32_t {
  // client -> server: a request (one reply each), or a notice (no reply)
  Run = 1,          // payload: kernel, file path and text, backend, RunConfig
  ReplayTime = 2,   // time a kept replay again
  ReplayDrop = 3,   // notice: a kept replay is no longer needed
  BuildFile = 4,    // build and load a kernel file there; answers its spec (ws/kernel_file/remote.h)
  Device = 10,      // the GPU's properties
  Ceilings = 11,    // the GPU's measured memory ceilings
  Streams = 12,     // the streams lesson's recording
  Cancel = 100,     // notice: stop request `id` (it replies as usual, sooner)
  // server -> client
  Reply = 200,      // payload: the request's answer
  Failed = 201,     // payload: why the request could not be answered
  OutOfMemory = 202,  // the request ran out of the process's memory (its allocations were refused)
  Phase = 203,        // the request enters its next phase (payload: its name): CallLimits::phases
  LastWords = 204,    // the process is crashing (payload: what it knows of where), from its signal handler
};
// Or'ed into an answer's kind: the process ends after it (its CUDA context was lost), so the
// client starts a new one for the next request instead of finding this one gone.
inline constexpr uint32_t kEndsAfter = 0x1000;

struct Frame {
  Kind kind = Kind::Reply;
  uint64_t id = 0;
  std::string payload;
};

// Frames larger than this are refused (a run's traces are capped far below it).
inline constexpr uint64_t kMaxFrameBytes = 16ull << 30;

// Writes the whole frame; false when the other end is gone (never raises SIGPIPE).
bool send_frame(int fd, const Frame& f);

// Reads frames from a socket piece by piece, so the caller can wait with a time limit.
class FrameReader {
 public:
  // Reads what the socket has (fd non-blocking, or after poll() said it is readable).
  // Returns false at the end of the stream or on an error (`error` says which).
  bool read_some(int fd, std::string& error);
  // A complete frame, when one has arrived.
  bool next(Frame& out, std::string& error);

 private:
  std::string buffer_;
  size_t consumed_ = 0;
};

// Blocking: the next frame, or false at the end of the stream / on an error.
bool receive_frame(int fd, FrameReader& reader, Frame& out, std::string& error);

}  // namespace ws::isolation
