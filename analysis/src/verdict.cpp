#include "ws/analysis/verdict.h"

namespace ws::analysis {

namespace {

std::string thread_text(const Dim3& t) {
  return "(" + std::to_string(t.x) + "," + std::to_string(t.y) + "," + std::to_string(t.z) + ")";
}

const char* verb(AccessKind k) {
  switch (k) {
    case AccessKind::Load: return "reads";
    case AccessKind::Store: return "writes";
    case AccessKind::Atomic: return "updates";
  }
  return "touches";
}

}  // namespace

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::Pass: return "PASS";
    case Verdict::LockstepOnly: return "LOCKSTEP ONLY";
    case Verdict::Fail: return "FAIL";
    case Verdict::Race: return "RACE";
    case Verdict::Fault: return "FAULT";
  }
  return "?";
}

std::string hazard_sentence(const Report& report, const Hazard& h) {
  std::string s = "thread " + thread_text(h.first.thread_index) + " " + verb(h.first.kind) + " " + h.element + " at " +
                  site_location(report, h.first_site) + ", thread " + thread_text(h.second.thread_index) + " " +
                  verb(h.second.kind) + " it at " + site_location(report, h.second_site);
  switch (h.scope) {
    case HazardScope::InterWarp: return s + ": different warps, no __syncthreads() between";
    case HazardScope::SameInstruction: return s + ": in one instruction, which value lands is undefined";
    case HazardScope::IntraWarpLockstep:
      return s + ": same warp, no __syncwarp() between; right only in lockstep (Volta and later need "
                 "__syncwarp() and volatile)";
  }
  return s;
}

RunVerdict verdict(bool completed, bool passed, std::span<const Report> reports,
                   std::span<const Diagnostic> run_errors) {
  RunVerdict v;
  const Hazard* race = nullptr;
  const Report* race_report = nullptr;
  const Hazard* lock = nullptr;
  const Report* lock_report = nullptr;
  for (const Report& r : reports) {
    v.races += r.totals.hazards;
    v.lockstep += r.totals.lockstep_hazards;
    for (const Hazard& h : r.hazards) {
      const bool in_warp = h.scope == HazardScope::IntraWarpLockstep;
      if (!in_warp && !race) race = &h, race_report = &r;
      if (in_warp && !lock) lock = &h, lock_report = &r;
    }
  }
  auto set = [&](Verdict x) {
    v.verdict = x;
    v.word = to_string(x);
  };
  if (!completed) {
    set(Verdict::Fault);
    v.sentence = "the kernel stopped before it finished";
    for (const Report& r : reports)
      for (const Diagnostic& d : r.diagnostics)
        if (d.severity == Severity::Error) {
          v.sentence = d.message;
          return v;
        }
    for (const Diagnostic& d : run_errors)
      if (d.severity == Severity::Error) {
        v.sentence = d.message;
        return v;
      }
    return v;
  }
  if (race) {
    set(Verdict::Race);
    v.first = race;
    v.sentence = hazard_sentence(*race_report, *race) +
                 (passed ? " (the result came out right this time)" : " (and the result is wrong)");
    return v;
  }
  if (!passed) {
    set(Verdict::Fail);
    v.sentence = "the result differs from the CPU reference";
    return v;
  }
  if (lock) {
    set(Verdict::LockstepOnly);
    v.first = lock;
    v.sentence = hazard_sentence(*lock_report, *lock);
  }
  return v;
}

}  // namespace ws::analysis
