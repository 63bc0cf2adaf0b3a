#include "cli/view_export.h"

#include "ws/viz/headless_context.h"
#include "ws/viz/panel_capture.h"

namespace ws::app {

bool render_view(const ViewRun& run, ws::viz::Image& out, std::string& error, bool* bad_input) {
  if (bad_input) *bad_input = true;
  MadeView m = make_view(run.view, run.options, error);
  if (!m.view) return false;
  Session& s = session();
  s.request(run.request);
  if (!s.wait_idle()) {
    error = "the run did not finish within a minute";
    return false;
  }
  if (!run.select.empty())
    if (std::string err = apply_selection(s, run.select); !err.empty()) {
      error = err;
      return false;
    }
  if (bad_input) *bad_input = false;  // what goes wrong from here on is not the input's fault
  if (std::string err = m.view->prepare_picture(s); !err.empty()) {
    error = err;
    return false;
  }
  auto ctx = ws::viz::HeadlessContext::create(error);
  if (!ctx) return false;
  View& view = *m.view;
  ws::viz::PanelCapture cap{m.type->title, ImVec2(float(run.width), float(run.height)),
                            ws::viz::Look{1.0f, run.presentation}, run.factor, [&] { view.draw(s); }, run.mouse};
  return ws::viz::render_panel(cap, out, error);
}

}  // namespace ws::app
