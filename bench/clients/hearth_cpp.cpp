// hearth_cpp.cpp — Hearth from C++ (include/hearth.hpp, the Firebase C++ SDK's style) on the host's
// libuv loop: Future::OnCompletion with a lambda starts the next operation, as a game would.
// Apps as in hearth_c.c: password sign-ins share one app; anonymous sign-ups and get_token(force) use
// one app per operation in flight.
#include "bench_common.h"

#include <hearth.hpp>
#include <uv.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace {

bench_run run;
uv_loop_t loop;

struct Slot {
  hearth::auth::Auth* auth = nullptr;
  hearth::auth::User user;  // token runs: the signed-in user
  int64_t start_ns = 0;
};

void Issue(Slot* slot);

template <typename T>
void Finish(Slot* slot, const hearth::Future<T>& future, bool has_result) {
  int error = future.error();
  if (error == 0 && !has_result) error = hearth::auth::kAuthErrorFailure;
  if (bench_complete(&run, slot->start_ns, error)) Issue(slot);
}

void Issue(Slot* slot) {
  slot->start_ns = bench_now_ns();
  bench_started(&run);
  switch (run.cfg.op) {
    case BENCH_ANON:
      slot->auth->SignOut();
      slot->auth->SignInAnonymously().OnCompletion([slot](const hearth::Future<hearth::auth::AuthResult>& f) {
        Finish(slot, f, f.result() && !f.result()->user.uid().empty());
      });
      break;
    case BENCH_PASSWORD:
      slot->auth->SignInWithEmailAndPassword(BENCH_EMAIL, BENCH_SECRET)
          .OnCompletion([slot](const hearth::Future<hearth::auth::AuthResult>& f) {
            Finish(slot, f, f.result() && !f.result()->user.uid().empty());
          });
      break;
    default:
      slot->user.GetToken(true).OnCompletion([slot](const hearth::Future<std::string>& f) {
        Finish(slot, f, f.result() && !f.result()->empty());
      });
  }
}

hearth::App* MakeApp(const bench_config& c, int index) {
  hearth::AppOptions options;
  options.set_api_key(c.op == BENCH_ANON ? BENCH_ANON_KEY : BENCH_PASSWORD_KEY);
  options.set_persistence(hearth::kPersistenceNone);
  options.set_loop(&loop);
  std::string name = "bench-" + std::to_string(index);
  hearth::App* app = hearth::App::Create(options, name.c_str());
  if (!app) {
    std::fprintf(stderr, "hearth_cpp: App::Create failed\n");
    std::exit(1);
  }
  hearth::auth::Auth::GetAuth(app)->UseEmulator(c.host, static_cast<uint32_t>(c.port));
  return app;
}

void RunUntil(const hearth::FutureBase& f) {
  while (f.status() == hearth::kFutureStatusPending) uv_run(&loop, UV_RUN_ONCE);
}

}  // namespace

int main(int argc, char** argv) {
  int64_t main_ns = bench_now_ns();
  bench_config cfg = bench_parse(argc, argv, "host");
  uv_loop_init(&loop);
  bench_run_init(&run, cfg);
  std::vector<hearth::App*> apps;

  if (cfg.first) {
    hearth::App* app = MakeApp(cfg, 0);
    int64_t issue_ns = bench_now_ns();
    auto f = hearth::auth::Auth::GetAuth(app)->SignInWithEmailAndPassword(BENCH_EMAIL, BENCH_SECRET);
    RunUntil(f);
    int64_t done = bench_now_ns();
    bench_report_first(&cfg, "hearth-cpp", main_ns, issue_ns, done, f.error(), bench_status_kib("VmRSS:"),
                       bench_thread_count());
    delete app;
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_loop_close(&loop);
    return 0;
  }

  const bool per_slot_apps = cfg.op != BENCH_PASSWORD;
  const int app_count = per_slot_apps ? cfg.inflight : 1;
  for (int i = 0; i < app_count; i++) apps.push_back(MakeApp(cfg, i));
  std::vector<Slot> slots(static_cast<size_t>(cfg.inflight));
  for (int i = 0; i < cfg.inflight; i++) slots[i].auth = hearth::auth::Auth::GetAuth(apps[per_slot_apps ? i : 0]);
  long setup_requests = 0;
  if (cfg.op == BENCH_TOKEN) {
    for (hearth::App* app : apps) {
      auto f = hearth::auth::Auth::GetAuth(app)->SignInWithEmailAndPassword(BENCH_EMAIL, BENCH_SECRET);
      RunUntil(f);
      if (f.error() != 0) {
        std::fprintf(stderr, "hearth_cpp: setup sign-in failed: %s\n", f.error_message());
        return 1;
      }
      setup_requests += 2;
    }
    for (Slot& s : slots) s.user = s.auth->current_user();
  }
  for (Slot& s : slots) Issue(&s);
  uv_run(&loop, UV_RUN_DEFAULT);
  char extra[64];
  std::snprintf(extra, sizeof extra, "\"apps\":%d", app_count);
  bench_report(&run, "hearth-cpp", cfg.op == BENCH_TOKEN ? 1 : 2, setup_requests, extra);
  slots.clear();
  for (hearth::App* app : apps) delete app;
  uv_run(&loop, UV_RUN_DEFAULT);
  uv_loop_close(&loop);
  return 0;
}
