#include "run_binary.h"

#include <cstdio>
#include <sys/wait.h>

RunResult run_warpscope(const std::string& args, const std::string& env) {
  std::string cmd = env + (env.empty() ? "" : " ") + "'" WARPSCOPE_EXE "' " + args + " 2>&1";
  RunResult r;
  std::FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int status = ::pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}
