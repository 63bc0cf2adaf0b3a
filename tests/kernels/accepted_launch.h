// A launch the catalog accepts for a variant and element type, found rather than typed: the
// kernel's defaults first, then larger problem sizes (the matmul ladder's tiles need n = 128).
// Tests over every variant use it, so a new variant is run by them without editing a test, and a
// variant no size fits is a failure, not a skipped test.
#pragma once

#include <optional>
#include <string>

#include "ws/run/catalog.h"

namespace ws::test {

inline std::optional<RunConfig> accepted_launch(const CatalogEntry& e, const std::string& variant,
                                                const std::string& dtype, std::string* first_refusal = nullptr) {
  for (uint64_t n : {uint64_t(0), uint64_t(64), uint64_t(128), uint64_t(256), uint64_t(1024), uint64_t(4096)}) {
    RunConfig cfg;
    cfg.variant = variant;
    cfg.dtype = dtype;
    cfg.n = n;
    const std::string why = Catalog::instance().resolve(e, cfg);
    if (why.empty()) {
      cfg.n = n;  // (resolve filled the defaults in; the run fills them again)
      return cfg;
    }
    if (first_refusal && first_refusal->empty()) *first_refusal = why;
  }
  return std::nullopt;
}

}  // namespace ws::test
