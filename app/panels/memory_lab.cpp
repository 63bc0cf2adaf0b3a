// Memory lab panel (issue 9): bank conflicts, coalescing, transpose, block shapes, tiled matmul,
// the shortcut problem and the CSR sparse matrix-vector product, toggled live. The same panel as
// the Reduction lab (views/lab.cpp) over the memory lectures' kernels: variants in lecture order,
// parameters (stride, element type, tile, padding, sizes), the result check and the key numbers;
// the views follow its runs.
#include "panels/panels.h"
#include "views/views.h"

namespace ws::app {

LabState& memory_lab_state() {
  static LabState s = [] {
    LabState st;
    st.kernels = {"bank", "coalesce", "transpose", "matadd", "matmul", "shortcut", "spmv"};
    return st;
  }();
  return s;
}

void draw_memory_lab() { draw_lab(session(), memory_lab_state()); }

}  // namespace ws::app
