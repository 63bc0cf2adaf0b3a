// Every variant of every catalog kernel runs on the emulator and passes its entry's check against
// the kernel's host reference, in every element type it takes, at a size it accepts
// (accepted_launch.h): a variant added to the catalog is held to its reference by this test alone.
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "accepted_launch.h"

namespace ws {
namespace {

struct KernelVariant {
  std::string kernel, variant;
};

void PrintTo(const KernelVariant& k, std::ostream* os) { *os << k.kernel << " " << k.variant; }

std::vector<KernelVariant> every_variant() {
  std::vector<KernelVariant> out;
  for (const CatalogEntry& e : Catalog::instance().entries())
    for (const VariantSpec& v : e.spec.variants)
      if (!v.gpu_only) out.push_back({e.spec.name, v.id});
  return out;
}

class EveryVariant : public testing::TestWithParam<KernelVariant> {};

TEST_P(EveryVariant, RunsOnTheEmulatorAndMatchesItsReference) {
  const CatalogEntry* e = Catalog::instance().find(GetParam().kernel);
  ASSERT_NE(e, nullptr);
  const VariantSpec* v = nullptr;
  for (const VariantSpec& x : e->spec.variants)
    if (x.id == GetParam().variant) v = &x;
  ASSERT_NE(v, nullptr);
  int ran = 0;
  std::string why;
  for (const std::string& dtype : e->spec.dtypes) {
    std::optional<RunConfig> cfg = test::accepted_launch(*e, v->id, dtype, &why);
    if (!cfg) continue;  // (this element type is not the variant's: another one must be)
    SCOPED_TRACE("dtype " + dtype + ", n " + std::to_string(cfg->n));
    cfg->seed = 5;
    cfg->emu.workers = 2;
    cfg->record.blocks = {0};
    const RunResult r = Catalog::instance().run(e->spec.name, *cfg, BackendKind::Emu);
    ++ran;
    ASSERT_TRUE(r.refused.empty()) << r.refused;
    if (v->broken) {  // kept to show a bug: it may fail its check or stop with the error it shows
      EXPECT_TRUE(r.completed || !r.errors.empty());
      continue;
    }
    EXPECT_TRUE(r.completed) << (r.errors.empty() ? "" : r.errors[0].code + ": " + r.errors[0].message);
    EXPECT_TRUE(r.passed) << r.result << " / " << r.check;
  }
  EXPECT_GT(ran, 0) << "no element type and size is accepted: " << why;
}

INSTANTIATE_TEST_SUITE_P(Catalog, EveryVariant, testing::ValuesIn(every_variant()),
                         [](const testing::TestParamInfo<KernelVariant>& info) {
                           std::string s = info.param.kernel + "_" + info.param.variant;
                           for (char& c : s)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

}  // namespace
}  // namespace ws
