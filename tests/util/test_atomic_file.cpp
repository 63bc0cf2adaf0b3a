// Writing a file so that a failed write never leaves a half file and never loses the old one.
#include "ws/util/atomic_file.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
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
