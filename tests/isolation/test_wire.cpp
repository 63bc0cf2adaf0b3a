// The run contract survives the trip to the run process and back: every RunConfig field, and a
// RunResult with a real emulator trace, come back equal; a message cut short is an error.
#include <gtest/gtest.h>

#include <tuple>

#include "ws/isolation/wire.h"
#include "ws/run/catalog.h"
#include "ws/run/config_fields.h"
#include "ws/run/result_fields.h"
#include "ws/run/spec_fields.h"
#include "field_list_check.h"
#include "ws/trace/stream_timeline.h"
#include "ws/trace/trace_io.h"

namespace ws::isolation {
namespace {

// Each leaf of a record's field list, changed alone from its default, comes back changed and
// leaves every other leaf as it was: the lists are the wire's coverage. A field a record gains and
// its list lacks changes the record's size, which stops these tests (x86-64 Linux, libstdc++).
TEST(Wire, EveryFieldOfTheConfigListTravelsAlone) {
  test::expect_every_leaf_travels_alone<RunConfig>(
      [](const RunConfig& c) {
        Writer w;
        write_config(w, c);
        return w.take();
      },
      [](const std::string& bytes) {
        Reader r(bytes);
        RunConfig c = read_config(r);
        EXPECT_TRUE(r.done());
        return c;
      });
  EXPECT_EQ(sizeof(RunConfig), 320u) << "RunConfig has a field config_fields.h does not list";
  EXPECT_EQ(sizeof(RecordOptions), 40u) << "RecordOptions has a field config_fields.h does not list";
  EXPECT_EQ(sizeof(EmuOptions), 24u) << "EmuOptions has a field config_fields.h does not list";
  EXPECT_EQ(sizeof(TimingOptions), 32u) << "TimingOptions has a field config_fields.h does not list";
}

TEST(Wire, EveryFieldOfTheResultListTravelsAlone) {
  test::expect_every_leaf_travels_alone<RunResult>(
      [](const RunResult& res) {
        Writer w;
        write_result(w, res);
        return w.take();
      },
      [](const std::string& bytes) {
        Reader r(bytes);
        RunResult res = read_result(r);
        EXPECT_TRUE(r.done());
        return res;
      });
  EXPECT_EQ(sizeof(RunResult), 304u) << "RunResult has a field result_fields.h does not list";
  EXPECT_EQ(sizeof(RunTiming), 64u) << "RunTiming has a field result_fields.h does not list";
  EXPECT_EQ(sizeof(CheckedValue), 64u) << "CheckedValue has a field result_fields.h does not list";
  EXPECT_EQ(sizeof(Diagnostic), 88u) << "Diagnostic has a field diagnostic_fields.h does not list";
}

TEST(Wire, EveryFieldOfTheSpecListTravelsAlone) {
  test::expect_every_leaf_travels_alone<KernelSpec>(
      [](const KernelSpec& s) {
        Writer w;
        write_spec(w, s);
        return w.take();
      },
      [](const std::string& bytes) {
        Reader r(bytes);
        KernelSpec s = read_spec(r);
        EXPECT_TRUE(r.done());
        return s;
      });
  EXPECT_EQ(sizeof(KernelSpec), 584u) << "KernelSpec has a field spec_fields.h does not list";
  EXPECT_EQ(sizeof(VariantSpec), 192u) << "VariantSpec has a field spec_fields.h does not list";
  EXPECT_EQ(sizeof(ParamSpec), 120u) << "ParamSpec has a field spec_fields.h does not list";
  EXPECT_EQ(sizeof(TimingSpec), 224u) << "TimingSpec has a field spec_fields.h does not list";
}

// A streams recording asked of the run process: its plan's list, each field alone.
TEST(Wire, EveryFieldOfTheStreamPlanTravelsAlone) {
  test::expect_every_leaf_travels_alone<StreamPlan>(
      [](const StreamPlan& p) {
        Writer w;
        put_field(w, p);
        return w.take();
      },
      [](const std::string& bytes) {
        Reader r(bytes);
        StreamPlan p;
        get_field(r, p);
        EXPECT_TRUE(r.done());
        return p;
      });
  EXPECT_EQ(sizeof(StreamPlan), 48u) << "StreamPlan has a field stream_timeline.h does not list";
}

// A stream timeline's JSON file: every field of its records, changed alone, reads back.
TEST(StreamTimelineFile, EveryFieldOfTheListIsWrittenAndReadBack) {
  test::expect_every_leaf_travels_alone<StreamTimeline>(
      [](const StreamTimeline& t) { return stream_timeline_json(t); },
      [](const std::string& text) {
        StreamTimeline t;
        EXPECT_EQ(parse_stream_timeline(text, t), "");
        return t;
      });
  EXPECT_EQ(sizeof(StreamOp), 80u) << "StreamOp has a field stream_timeline.h does not list";
  EXPECT_EQ(sizeof(StreamScenario), 88u) << "StreamScenario has a field stream_timeline.h does not list";
  EXPECT_EQ(sizeof(StreamTimeline), 152u) << "StreamTimeline has a field stream_timeline.h does not list";
}

TEST(Wire, ConfigComesBackWithEveryField) {
  RunConfig c;
  c.variant = "padded";
  c.n = 123456789012ull;
  c.block = {32, 8, 2};
  c.grid = {7, 3, 1};
  c.dtype = "double";
  c.seed = 0xfedcba9876543210ull;
  c.params = {{"stride", -5}, {"tile", 1ll << 40}};
  c.param_choices = {{"input", "sorted"}};
  c.record.blocks = {0, 7, 4000000000u};
  c.record.count_every_block = false;
  c.record.max_events = 17;
  c.emu.workers = 3;
  c.emu.step_budget = 99;
  c.emu.defer_loads = false;
  c.emu.eager_shuffles = false;
  c.emu.converged_issue = false;
  c.timing.warmup = 2;
  c.timing.reps = 30;
  c.timing.flush_l2 = false;
  c.timing.max_ms = 2.5;
  c.timing.keep = true;
  c.memory_limit = 1ull << 33;
  Writer w;
  write_config(w, c);
  Reader r(w.bytes());
  const RunConfig b = read_config(r);
  EXPECT_TRUE(r.done());
  EXPECT_EQ(b.variant, c.variant);
  EXPECT_EQ(b.n, c.n);
  EXPECT_EQ(b.block, c.block);
  EXPECT_EQ(b.grid, c.grid);
  EXPECT_EQ(b.dtype, c.dtype);
  EXPECT_EQ(b.seed, c.seed);
  EXPECT_EQ(b.params, c.params);
  EXPECT_EQ(b.param_choices, c.param_choices);
  EXPECT_EQ(b.record.blocks, c.record.blocks);
  EXPECT_EQ(b.record.count_every_block, false);
  EXPECT_EQ(b.record.max_events, 17u);
  EXPECT_EQ(b.emu.workers, 3u);
  EXPECT_EQ(b.emu.step_budget, 99u);
  EXPECT_FALSE(b.emu.defer_loads || b.emu.eager_shuffles || b.emu.converged_issue);
  EXPECT_EQ(b.timing.warmup, 2u);
  EXPECT_EQ(b.timing.reps, 30u);
  EXPECT_FALSE(b.timing.flush_l2);
  EXPECT_EQ(b.timing.max_ms, 2.5);
  EXPECT_TRUE(b.timing.keep);
  EXPECT_EQ(b.memory_limit, 1ull << 33);
}

TEST(Wire, ResultComesBackWithItsTraces) {
  RunConfig cfg;
  cfg.variant = "3";
  cfg.n = 2048;
  cfg.block = {128, 1, 1};
  cfg.record.blocks = {0, 1};
  RunResult res = Catalog::instance().run("reduce", cfg, BackendKind::Emu);
  ASSERT_TRUE(res.refused.empty()) << res.refused;
  ASSERT_FALSE(res.launches.empty());
  res.errors.push_back({Severity::Warning, "a-code", "a message \xff with a byte that is not UTF-8", 3, 4, 5});
  res.notes = {"one", "two"};
  res.timing.ms = {0.25, 0.5};
  res.timing.launches = 2;
  res.timing.bytes = 8192;
  res.emulate_seconds = 0.125;
  res.checked.push_back({"extra", CheckedValue{"float", 4, {1, 2, 3, 4, 5, 6, 7, 8}}});
  Writer w;
  write_result(w, res);
  Reader r(w.bytes());
  const RunResult b = read_result(r);
  EXPECT_TRUE(r.done());
  EXPECT_EQ(b.refused, res.refused);
  EXPECT_EQ(b.completed, res.completed);
  EXPECT_EQ(b.passed, res.passed);
  EXPECT_EQ(b.result, res.result);
  EXPECT_EQ(b.expected, res.expected);
  EXPECT_EQ(b.check, res.check);
  ASSERT_EQ(b.checked.size(), res.checked.size());
  for (size_t i = 0; i < res.checked.size(); ++i) {
    EXPECT_EQ(b.checked[i].first, res.checked[i].first);
    EXPECT_EQ(b.checked[i].second.type, res.checked[i].second.type);
    EXPECT_EQ(b.checked[i].second.bytes, res.checked[i].second.bytes);
  }
  ASSERT_EQ(b.launches.size(), res.launches.size());
  for (size_t i = 0; i < res.launches.size(); ++i) {
    EXPECT_EQ(b.launches[i].events.size(), res.launches[i].events.size());
    EXPECT_EQ(b.launches[i].lane_offsets, res.launches[i].lane_offsets);
    EXPECT_EQ(b.launches[i].recorded_blocks, res.launches[i].recorded_blocks);
    EXPECT_EQ(serialize_trace(b.launches[i]), serialize_trace(res.launches[i]));
  }
  ASSERT_EQ(b.errors.size(), res.errors.size());
  EXPECT_EQ(b.errors.back().message, res.errors.back().message);
  EXPECT_EQ(b.errors.back().severity, Severity::Warning);
  EXPECT_EQ(b.errors.back().thread, 5u);
  EXPECT_EQ(b.notes, res.notes);
  EXPECT_EQ(b.timing.ms, res.timing.ms);
  EXPECT_EQ(b.timing.launches, 2u);
  EXPECT_EQ(b.timing.bytes, 8192u);
  EXPECT_EQ(b.emulate_seconds, 0.125);
}

// Every kernel of the catalog: its spec's data comes back field by field; its code does not, and
// SpecCode says which functions it had.
TEST(Wire, EveryKernelsSpecComesBackWithItsData) {
  size_t with_flops = 0, with_choices = 0;
  for (const CatalogEntry& e : Catalog::instance().entries()) {
    const KernelSpec& a = e.spec;
    Writer w;
    write_spec(w, a);
    Reader r(w.bytes());
    SpecCode code;
    const KernelSpec b = read_spec(r, &code);
    EXPECT_TRUE(r.done()) << a.name;
    SCOPED_TRACE(a.name);
    EXPECT_EQ(std::tie(b.name, b.title, b.description, b.source, b.file, b.lecture),
              std::tie(a.name, a.title, a.description, a.source, a.file, a.lecture));
    ASSERT_EQ(b.variants.size(), a.variants.size());
    for (size_t i = 0; i < a.variants.size(); ++i) {
      const VariantSpec &x = a.variants[i], &y = b.variants[i];
      EXPECT_EQ(std::tie(y.id, y.name, y.summary, y.broken, y.broken_note, y.gpu_only, y.focus, y.order_dependent, y.takes_grid),
                std::tie(x.id, x.name, x.summary, x.broken, x.broken_note, x.gpu_only, x.focus, x.order_dependent, x.takes_grid));
      EXPECT_EQ(std::tie(y.block_x, y.block_y, y.block_z), std::tie(x.block_x, x.block_y, x.block_z));
    }
    ASSERT_EQ(b.params.size(), a.params.size());
    for (size_t i = 0; i < a.params.size(); ++i) {
      const ParamSpec &x = a.params[i], &y = b.params[i];
      EXPECT_EQ(std::tie(y.name, y.description, y.min, y.max, y.def, y.choices), std::tie(x.name, x.description, x.min, x.max, x.def, x.choices));
      with_choices += !x.choices.empty();
    }
    EXPECT_EQ(std::tie(b.default_n, b.default_block, b.default_block_y, b.block_2d, b.dtypes, b.arrays),
              std::tie(a.default_n, a.default_block, a.default_block_y, a.block_2d, a.dtypes, a.arrays));
    const TimingSpec &x = a.timing, &y = b.timing;
    EXPECT_EQ(std::tie(y.n, y.sizes, y.matrix, y.scales, y.params, y.why, y.ceiling, y.reference),
              std::tie(x.n, x.sizes, x.matrix, x.scales, x.params, x.why, x.ceiling, x.reference));
    EXPECT_EQ(code.elements, bool(a.elements));
    EXPECT_EQ(code.emulator_limit, bool(a.emulator_limit));
    EXPECT_EQ(code.flops, bool(x.flops));
    EXPECT_EQ(code.bytes, bool(x.bytes));
    EXPECT_FALSE(b.elements || b.emulator_limit || y.flops || y.bytes) << "code does not travel";
    with_flops += code.flops;
    // Cut short anywhere: an error, never a crash.
    for (size_t cut = 0; cut < w.bytes().size(); cut += 1 + w.bytes().size() / 61) {
      Reader short_one(std::string_view(w.bytes()).substr(0, cut));
      EXPECT_THROW(read_spec(short_one), WireError) << "cut at " << cut;
    }
  }
  EXPECT_GT(with_flops, 0u) << "the catalog has kernels that count their flops (matmul)";
  EXPECT_GT(with_choices, 0u) << "and parameters with named choices";
}

TEST(Wire, AMessageCutShortIsAnErrorAtEveryLength) {
  RunResult res = Catalog::instance().run("reduce", RunConfig{}, BackendKind::Emu);
  Writer w;
  write_result(w, res);
  const std::string& all = w.bytes();
  // Every prefix (sampled) fails cleanly; none reads past its end or allocates its claimed sizes.
  for (size_t cut = 0; cut < all.size(); cut += 1 + all.size() / 997) {
    Reader r(std::string_view(all).substr(0, cut));
    EXPECT_THROW(read_result(r), WireError) << "cut at " << cut;
  }
  Writer huge;
  huge.u64(1ull << 60);  // a count no message can hold
  Reader r(huge.bytes());
  EXPECT_THROW(r.count(8), WireError);
}

}  // namespace
}  // namespace ws::isolation
