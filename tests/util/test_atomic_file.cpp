// Writing a file so that a failed write never leaves a half file and never loses the old one.
#include "ws/util/atomic_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

fs::path fresh_dir(const char* name) {
  fs::path d = fs::temp_directory_path() / ("ws_atomic_" + std::string(name) + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

size_t entries(const fs::path& d) { return size_t(std::distance(fs::directory_iterator(d), fs::directory_iterator{})); }

}  // namespace

TEST(AtomicFile, WritesReadsAndReplacesLeavingNoTemporary) {
  const fs::path dir = fresh_dir("write");
  const fs::path f = dir / "notes.txt";
  ASSERT_EQ(ws::write_file_atomic(f, std::string("first")), "");
  ASSERT_EQ(ws::write_file_atomic(f, std::string("second, longer")), "");
  std::string back, err;
  ASSERT_TRUE(ws::read_file(f, back, err)) << err;
  EXPECT_EQ(back, "second, longer");
  EXPECT_EQ(entries(dir), 1u);  // the temporary was renamed, not left beside it
  fs::remove_all(dir);
}

TEST(AtomicFile, AnUnwritablePlaceNamesThePathAndTheReason) {
  const fs::path dir = fresh_dir("unwritable");
  const fs::path f = dir / "missing" / "x.txt";
  const std::string err = ws::write_file_atomic(f, std::string("x"));
  EXPECT_NE(err.find(f.string()), std::string::npos) << err;
  EXPECT_NE(err.find("No such file or directory"), std::string::npos) << err;
  EXPECT_EQ(entries(dir), 0u);
  std::string back, rerr;
  EXPECT_FALSE(ws::read_file(f, back, rerr));
  EXPECT_NE(rerr.find(f.string()), std::string::npos) << rerr;
  fs::remove_all(dir);
}

// Only regular files are replaced: a device, a FIFO or a directory is refused and left as it is
// (renaming over /dev/full would turn the device node into a file).
TEST(AtomicFile, ADeviceAFifoOrADirectoryIsRefusedAndLeftAlone) {
  const fs::path dir = fresh_dir("special");
  const fs::path fifo = dir / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string err = ws::write_file_atomic(fifo, std::string("x"));
  EXPECT_NE(err.find("is a FIFO, not a regular file"), std::string::npos) << err;
  EXPECT_TRUE(fs::is_fifo(fifo));
  err = ws::write_file_atomic(dir, std::string("x"));
  EXPECT_NE(err.find("is a directory"), std::string::npos) << err;
  EXPECT_EQ(entries(dir), 1u);  // no temporary left
  if (fs::exists("/dev/null")) {
    err = ws::write_file_atomic("/dev/null", std::string("x"));
    EXPECT_NE(err.find("/dev/null: it is a character device"), std::string::npos) << err;
    EXPECT_TRUE(fs::is_character_file("/dev/null"));
  }
  fs::remove_all(dir);
}

// A symbolic link is followed: the file it names gets the bytes, the link stays a link; an
// existing file keeps its permissions.
TEST(AtomicFile, ALinkIsFollowedAndPermissionsKept) {
  const fs::path dir = fresh_dir("link");
  const fs::path target = dir / "real.txt", link = dir / "link.txt";
  ASSERT_EQ(ws::write_file_atomic(target, std::string("old")), "");
  fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write);
  fs::create_symlink("real.txt", link);
  ASSERT_EQ(ws::write_file_atomic(link, std::string("new")), "");
  EXPECT_TRUE(fs::is_symlink(link));
  std::string back, err;
  ASSERT_TRUE(ws::read_file(target, back, err)) << err;
  EXPECT_EQ(back, "new");
  EXPECT_EQ(fs::status(target).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
  fs::remove_all(dir);
}

// A file with another name (a hard link) is written through: both names see the new contents and
// stay one file; no temporary is left.
TEST(AtomicFile, AHardLinkedFileIsWrittenThroughEveryName) {
  const fs::path dir = fresh_dir("hardlink");
  const fs::path a = dir / "lesson.toml", b = dir / "also.toml";
  ASSERT_EQ(ws::write_file_atomic(a, std::string("old contents")), "");
  fs::create_hard_link(a, b);
  ASSERT_EQ(ws::write_file_atomic(a, std::string("new")), "");
  std::string back, err;
  ASSERT_TRUE(ws::read_file(b, back, err)) << err;
  EXPECT_EQ(back, "new") << "the other name sees the save";
  EXPECT_EQ(fs::hard_link_count(a), 2u);
  EXPECT_TRUE(fs::equivalent(a, b));
  EXPECT_EQ(entries(dir), 2u);  // no temporary left
  fs::remove_all(dir);
}

// Another user's file (writable by us) keeps its owner and group. Needs root to make one.
TEST(AtomicFile, AFileKeepsItsOwner) {
  const fs::path dir = fresh_dir("owner");
  const fs::path f = dir / "shared.txt";
  ASSERT_EQ(ws::write_file_atomic(f, std::string("old")), "");
  const uid_t other_uid = 12345;
  const gid_t other_gid = 12346;
  if (::chown(f.c_str(), other_uid, other_gid) != 0) {
    fs::remove_all(dir);
    GTEST_SKIP() << "cannot give a file to another user here (not root)";
  }
  ASSERT_EQ(ws::write_file_atomic(f, std::string("new")), "");
  struct stat st {};
  ASSERT_EQ(::stat(f.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, other_uid);
  EXPECT_EQ(st.st_gid, other_gid);
  std::string back, err;
  ASSERT_TRUE(ws::read_file(f, back, err)) << err;
  EXPECT_EQ(back, "new");
  fs::remove_all(dir);
}
