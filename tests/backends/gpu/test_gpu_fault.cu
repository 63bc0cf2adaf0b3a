// A kernel fault on the GPU becomes a message with CUDA's own words, the context is reset, and the
// program goes on: the next GPU run works, or (where the device refuses a new context, as on the
// H200 machine) is refused with a message saying why, and the emulator still runs.
#include <gtest/gtest.h>

#include "ws/run/catalog.h"
#include "ws/gpu/gpu_backend.cuh"

namespace {

// A plain store; the test hands it an array at an address nothing is mapped at, so the store is
// an illegal address: a sticky error for the whole context.
__global__ void write_through_null(ws::global_array<int> a) { a[threadIdx.x] = 1; }

}  // namespace

TEST(GpuFault, IllegalAddressIsReportedAndTheDeviceIsReset) {
  if (!ws::gpu::device().present) GTEST_SKIP() << ws::gpu::device().why_not;
  ws::RunConfig cfg;
  ws::RunResult out;
  {
    ws::GpuBackend be("fault", cfg, out);
    ws::global_array<int> bogus(reinterpret_cast<int*>(uintptr_t(0x100)), 32);
    EXPECT_FALSE(be.launch("write_through_null", {1, 1, 1}, {32, 1, 1}, 0, write_through_null, bogus));
  }
  ASSERT_FALSE(out.errors.empty());
  const std::string& msg = out.errors[0].message;
  EXPECT_EQ(out.errors[0].code, "cuda-error");
  EXPECT_NE(msg.find("write_through_null"), std::string::npos) << msg;
  EXPECT_NE(msg.find("cudaErrorIllegalAddress"), std::string::npos) << msg;
  EXPECT_NE(msg.find("leaves the GPU context unusable"), std::string::npos) << msg;
  ws::RunConfig next;
  next.variant = "3";
  next.n = 100000;
  ws::RunResult r = ws::Catalog::instance().run("reduce", next, ws::BackendKind::GpuFast);
  if (ws::gpu::usable()) {
    EXPECT_TRUE(r.completed) << (r.errors.empty() ? "" : r.errors[0].message);
    EXPECT_TRUE(r.passed) << r.result;
  } else {
    // Refused, not faulted: the run says why and runs nothing.
    std::printf("the device did not come back: %s\n", ws::gpu::unusable_reason().c_str());
    EXPECT_FALSE(r.completed);
    EXPECT_NE(r.refused.find("until warpscope is restarted"), std::string::npos) << r.refused;
  }
  // Whatever the GPU does, the emulator goes on.
  ws::RunResult emu = ws::Catalog::instance().run("reduce", next, ws::BackendKind::Emu);
  EXPECT_TRUE(emu.passed) << emu.result;
}
