// SPDX-License-Identifier: Apache-2.0
// kai_benchmark: times every kai kernel and packer on LLM-shaped problems and checks each result
// once against the reference before timing it. Kernels come from the registry shared with the
// tests (test/registry, generated from kai/kernels.bzl), through the family adapters.
//
//   kai_benchmark [--filter REGEX] [--shape MxNxK]... [--bl N] [--threads T] [--repetitions R]
//                 [--min-time S] [--format table|csv|json] [--emulated] [--list]
#include <pthread.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "benchmark/bench_case.h"
#include "kai/kai_common.h"
#include "test/common/cpu_features.h"

namespace kai_bench {

void split_2d(size_t m, size_t n, size_t m_step, size_t n_step, unsigned t, unsigned T, size_t* m0, size_t* m1,
              size_t* n0, size_t* n1) {
    // Choose a grid rows x cols = T that keeps tiles close to square in units of steps.
    const size_t mu = (m + m_step - 1) / m_step;
    const size_t nu = (n + n_step - 1) / n_step;
    unsigned best_rows = 1;
    double best_cost = 1e300;
    for (unsigned rows = 1; rows <= T; ++rows) {
        if (T % rows != 0) continue;
        const unsigned cols = T / rows;
        const double tm = std::ceil(static_cast<double>(mu) / rows) * static_cast<double>(m_step);
        const double tn = std::ceil(static_cast<double>(nu) / cols) * static_cast<double>(n_step);
        const double cost = tm * tn;  // work of the largest tile
        if (cost < best_cost) {
            best_cost = cost;
            best_rows = rows;
        }
    }
    const unsigned rows = best_rows;
    const unsigned cols = T / rows;
    split_range(m, m_step, t / cols, rows, m0, m1);
    split_range(n, n_step, t % cols, cols, n0, n1);
}

namespace {

// ------------------------------------------------------------------ time

double now_seconds() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

#if defined(__aarch64__)
uint64_t generic_timer_ticks() {
    uint64_t v;
    __asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v));
    return v;
}
uint64_t generic_timer_freq() {
    uint64_t v;
    __asm__ volatile("mrs %0, cntfrq_el0" : "=r"(v));
    return v;
}
#else
uint64_t generic_timer_ticks() { return 0; }
uint64_t generic_timer_freq() { return 0; }
#endif

// Seconds by the AArch64 generic timer when it is usable, CLOCK_MONOTONIC otherwise.
struct Clock {
    double freq = 0;
    Clock() {
        const uint64_t f = generic_timer_freq();
        if (f != 0) freq = static_cast<double>(f);
    }
    double now() const {
        if (freq != 0) return static_cast<double>(generic_timer_ticks()) / freq;
        return now_seconds();
    }
    const char* name() const { return freq != 0 ? "AArch64 generic timer (CNTVCT_EL0)" : "CLOCK_MONOTONIC"; }
};

// ------------------------------------------------------------------ emulator

bool running_under_emulator() {
    // Under qemu-user the process is qemu itself: the kernel names it after the emulator.
    std::ifstream comm("/proc/self/comm");
    std::string name;
    if (comm >> name && name.find("qemu") != std::string::npos) return true;
    return std::getenv("KAI_CPU_MODEL") != nullptr;  // set by tools/toolchain/qemu_run.sh
}

// ------------------------------------------------------------------ thread pool

class Pool {
public:
    explicit Pool(unsigned n) : n_(n) {
        for (unsigned t = 1; t < n_; ++t) workers_.emplace_back([this, t] { loop(t); });
    }
    ~Pool() {
        {
            std::lock_guard<std::mutex> g(mu_);
            stop_ = true;
            ++generation_;
        }
        cv_.notify_all();
        for (std::thread& w : workers_) w.join();
    }
    // Runs fn(t) on every thread (the caller is thread 0) and waits for all.
    void run(const std::function<void(unsigned)>& fn) {
        if (n_ == 1) {
            fn(0);
            return;
        }
        {
            std::lock_guard<std::mutex> g(mu_);
            fn_ = &fn;
            pending_ = n_ - 1;
            ++generation_;
        }
        cv_.notify_all();
        fn(0);
        std::unique_lock<std::mutex> l(mu_);
        done_cv_.wait(l, [this] { return pending_ == 0; });
    }

private:
    void loop(unsigned t) {
        uint64_t seen = 0;
        for (;;) {
            const std::function<void(unsigned)>* fn;
            {
                std::unique_lock<std::mutex> l(mu_);
                cv_.wait(l, [&] { return generation_ != seen; });
                seen = generation_;
                if (stop_) return;
                fn = fn_;
            }
            (*fn)(t);
            {
                std::lock_guard<std::mutex> g(mu_);
                if (--pending_ == 0) done_cv_.notify_one();
            }
        }
    }
    unsigned n_;
    std::vector<std::thread> workers_;
    std::mutex mu_;
    std::condition_variable cv_, done_cv_;
    const std::function<void(unsigned)>* fn_ = nullptr;
    unsigned pending_ = 0;
    uint64_t generation_ = 0;
    bool stop_ = false;
};

// ------------------------------------------------------------------ options

struct Cli {
    Options opt;
    bool timing_given = false;  // --repetitions or --min-time on the command line
    std::string filter = ".*";
    std::string format = "table";
    bool list = false;
    bool emulated_flag = false;
};

[[noreturn]] void usage(int code) {
    std::printf(
        "usage: kai_benchmark [options]\n"
        "  --filter REGEX       run only cases whose name matches (ECMAScript regex, searched)\n"
        "  --shape MxNxK        problem shape; repeatable (default: the LLM suite below)\n"
        "  --bl N               block length of the block-wise int4 families (default 32)\n"
        "  --threads T          split each call over T threads with the offset API (default 1)\n"
        "  --repetitions R      timed calls per case (default: until --min-time)\n"
        "  --min-time S         minimum timed seconds per case (default 0.2; 0 = one call)\n"
        "  --format F           table (default), csv or json\n"
        "  --emulated           say that times are not hardware performance (auto-detected)\n"
        "  --list               list the registered kernels and packers with their features\n"
        "Default suite: decode M=1 and prefill M=128 at (N,K) = (4096,4096) and (11008,4096);\n"
        "BF16 also at 256^3 and 1024^3. Each result is verified once before timing.\n");
    std::exit(code);
}

bool parse_shape(const char* s, Shape* out) {
    unsigned long m, n, k;
    char tail;
    if (std::sscanf(s, "%lux%lux%lu%c", &m, &n, &k, &tail) != 3) return false;
    if (m == 0 || n == 0 || k == 0) return false;
    out->m = m;
    out->n = n;
    out->k = k;
    return true;
}

Cli parse(int argc, char** argv) {
    Cli c;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> const char* {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "kai_benchmark: %s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        auto number = [&](const char* v, double lo) {
            char* end = nullptr;
            errno = 0;
            const double d = std::strtod(v, &end);
            if (errno != 0 || end == v || *end != '\0' || d < lo) {
                std::fprintf(stderr, "kai_benchmark: bad value '%s' for %s\n", v, a.c_str());
                std::exit(2);
            }
            return d;
        };
        if (a == "--filter") {
            c.filter = value();
        } else if (a == "--shape") {
            Shape s;
            const char* v = value();
            if (!parse_shape(v, &s)) {
                std::fprintf(stderr, "kai_benchmark: --shape wants MxNxK with positive integers, got '%s'\n", v);
                std::exit(2);
            }
            c.opt.shapes.push_back(s);
        } else if (a == "--bl") {
            const double bl = number(value(), 32);
            if (static_cast<size_t>(bl) % 32 != 0) {
                std::fprintf(stderr, "kai_benchmark: --bl must be a multiple of 32\n");
                std::exit(2);
            }
            c.opt.bl = static_cast<size_t>(bl);
        } else if (a == "--threads") {
            c.opt.threads = static_cast<unsigned>(number(value(), 1));
        } else if (a == "--repetitions") {
            c.opt.repetitions = static_cast<int>(number(value(), 1));
            c.timing_given = true;
        } else if (a == "--min-time") {
            c.opt.min_time = number(value(), 0);
            c.timing_given = true;
        } else if (a == "--format") {
            c.format = value();
            if (c.format != "table" && c.format != "csv" && c.format != "json") {
                std::fprintf(stderr, "kai_benchmark: --format is table, csv or json\n");
                std::exit(2);
            }
        } else if (a == "--emulated") {
            c.emulated_flag = true;
        } else if (a == "--list") {
            c.list = true;
        } else if (a == "--help" || a == "-h") {
            usage(0);
        } else {
            std::fprintf(stderr, "kai_benchmark: unknown option '%s' (try --help)\n", a.c_str());
            std::exit(2);
        }
    }
    return c;
}

// ------------------------------------------------------------------ registry listing

struct Entry {
    const char* kind;
    const char* family;
    const char* name;
    uint32_t features;
};

// Every kernel and packer of kai/kernels.bzl (generated, committed, checked in CI).
#define KAI_BENCH_ENTRY(kind, family, name, features) {#kind, #family, #name, features},
const Entry kEntries[] = {
#include "benchmark/kai_benchmark_entries.inc"
    {nullptr, nullptr, nullptr, 0},
};
#undef KAI_BENCH_ENTRY

// The entries the family adapters produced no case for (a kernel added without its benchmark).
std::vector<const Entry*> uncovered(const std::vector<BenchCase>& cases) {
    std::vector<const Entry*> out;
    for (const Entry* e = kEntries; e->name != nullptr; ++e) {
        bool found = false;
        for (const BenchCase& c : cases) found = found || c.name == e->name;
        if (!found) out.push_back(e);
    }
    return out;
}

int list() {
    std::printf("%-10s %-9s %-64s %-14s %s\n", "kind", "family", "name", "features", "this CPU");
    size_t count = 0;
    for (const Entry* e = kEntries; e->name != nullptr; ++e, ++count) {
        const std::string missing = kai_test::missing_features(e->features);
        std::printf("%-10s %-9s %-64s %-14s %s\n", e->kind, e->family, e->name,
                    kai_test::feature_names(e->features).c_str(),
                    missing.empty() ? "runs" : ("skipped: lacks " + missing).c_str());
    }
    std::printf("%zu entries; CPU features: %s\n", count, kai_test::feature_names(kai_test::cpu_features()).c_str());
    return 0;
}

// ------------------------------------------------------------------ running

struct Result {
    const BenchCase* c;
    std::string status;  // "ok", "ok (sampled)", "FAIL: ...", "skipped: lacks ..."
    double median = 0, min = 0;
    int calls = 0;
    size_t copies = 1;
    std::string regime;
};

constexpr size_t kLastLevelCacheBytes = size_t(64) << 20;  // rotate inputs past a typical LLC

std::string regime_of(size_t working_set, size_t copies) {
    if (working_set == 0) return "-";
    if (copies > 1) return "rotated";
    if (working_set <= (size_t(1) << 20)) return "L2";
    if (working_set <= kLastLevelCacheBytes) return "LLC";
    return "DRAM";
}

Result run_case(const BenchCase& c, const Options& opt, Pool& pool, const Clock& clock) {
    Result r;
    r.c = &c;
    const std::string missing = kai_test::missing_features(c.features);
    if (!missing.empty()) {
        r.status = "skipped: lacks " + missing;
        return r;
    }
    // Inputs that fit in the last-level cache are copied until they do not, and the copies are
    // used in turn, so that a GEMV reads its weights from memory as it would in an engine.
    size_t copies = 1;
    if (c.working_set > 0 && c.working_set < kLastLevelCacheBytes && !opt.emulated && c.kind != "rhs_packer") {
        copies = std::min<size_t>(16, (kLastLevelCacheBytes + c.working_set - 1) / c.working_set);
        if (c.working_set * copies < kLastLevelCacheBytes) copies = 1;  // capped: not worth it
    }
    r.copies = copies;
    r.regime = regime_of(c.working_set, copies);
    c.setup(copies);
    const unsigned T = opt.threads;
    auto one_call = [&](size_t copy) { pool.run([&](unsigned t) { c.run(t, T, copy); }); };
    // Verify once, with the same threading as the timed runs.
    one_call(0);
    const std::string err = c.verify(opt.emulated);
    if (!err.empty()) {
        r.status = "FAIL: " + err;
        c.teardown();
        return r;
    }
    r.status = opt.emulated && (c.kind == "matmul" || c.kind == "pipeline") ? "ok (sampled)" : "ok";
    // Warm-up (on hardware), then time calls until min_time (or the requested count).
    if (!opt.emulated) one_call(copies > 1 ? 1 % copies : 0);
    std::vector<double> times;
    const double start = clock.now();
    size_t copy = 0;
    for (;;) {
        const double t0 = clock.now();
        one_call(copy);
        const double t1 = clock.now();
        times.push_back(t1 - t0);
        copy = (copy + 1) % copies;
        if (opt.repetitions > 0) {
            if (static_cast<int>(times.size()) >= opt.repetitions) break;
        } else if (t1 - start >= opt.min_time) {
            break;
        }
    }
    std::sort(times.begin(), times.end());
    r.calls = static_cast<int>(times.size());
    r.min = times.front();
    r.median = times.size() % 2 ? times[times.size() / 2]
                                : 0.5 * (times[times.size() / 2 - 1] + times[times.size() / 2]);
    c.teardown();
    return r;
}

// ------------------------------------------------------------------ output

std::string fmt(const char* f, double v) {
    char b[64];
    std::snprintf(b, sizeof(b), f, v);
    return b;
}

std::string json_escape(const std::string& s) {
    std::string o;
    for (char ch : s) {
        if (ch == '"' || ch == '\\') o += '\\';
        if (static_cast<unsigned char>(ch) < 0x20) {
            o += ' ';
            continue;
        }
        o += ch;
    }
    return o;
}

void print_results(const std::vector<Result>& results, const std::string& format, const Options& opt,
                   const Clock& clock) {
    if (format == "table") return;  // printed row by row
    if (format == "json") {
        std::printf("{\n  \"emulated\": %s,\n  \"threads\": %u,\n  \"clock\": \"%s\",\n  \"results\": [\n",
                    opt.emulated ? "true" : "false", opt.threads, clock.name());
        for (size_t i = 0; i < results.size(); ++i) {
            const Result& r = results[i];
            const BenchCase& c = *r.c;
            const double rate = r.median > 0 ? c.ops / r.median * 1e-9 : 0;
            std::printf(
                "    {\"name\": \"%s\", \"call\": \"%s\", \"family\": \"%s\", \"kind\": \"%s\", \"m\": %zu, \"n\": %zu, \"k\": %zu, "
                "\"bl\": %zu, \"status\": \"%s\", \"regime\": \"%s\", \"calls\": %d, \"median_s\": %.9g, "
                "\"min_s\": %.9g, \"rate\": %.6g, \"rate_unit\": \"%s\", \"weight_bytes_per_s\": %.6g}%s\n",
                json_escape(c.name).c_str(), json_escape(c.what).c_str(), c.family.c_str(), c.kind.c_str(), c.shape.m, c.shape.n, c.shape.k, c.bl,
                json_escape(r.status).c_str(), r.regime.c_str(), r.calls, r.median, r.min, rate, c.ops_unit,
                r.median > 0 && c.weight_bytes > 0 ? c.weight_bytes / r.median : 0.0,
                i + 1 < results.size() ? "," : "");
        }
        std::printf("  ]\n}\n");
        return;
    }
    if (format == "csv") {
        std::printf("name,call,family,kind,m,n,k,bl,status,regime,calls,median_s,min_s,rate,rate_unit,weight_GB_per_s\n");
        for (const Result& r : results) {
            const BenchCase& c = *r.c;
            std::printf("%s,%s,%s,%s,%zu,%zu,%zu,%zu,\"%s\",%s,%d,%.9g,%.9g,%.6g,%s,%.6g\n", c.name.c_str(),
                        c.what.c_str(), c.family.c_str(), c.kind.c_str(), c.shape.m, c.shape.n, c.shape.k, c.bl, r.status.c_str(),
                        r.regime.c_str(), r.calls, r.median, r.min, r.median > 0 ? c.ops / r.median * 1e-9 : 0,
                        c.ops_unit, r.median > 0 && c.weight_bytes > 0 ? c.weight_bytes / r.median * 1e-9 : 0.0);
        }
        return;
    }
}

// The table is printed row by row as cases finish (a long suite shows progress).
struct TableWidths {
    int name = 6, what = 4;
};

TableWidths table_widths(const std::vector<const BenchCase*>& cases) {
    TableWidths w;
    for (const BenchCase* c : cases) {
        w.name = std::max(w.name, static_cast<int>(c->name.size()));
        w.what = std::max(w.what, static_cast<int>(c->what.size()));
    }
    return w;
}

void print_table_header(const TableWidths& w) {
    std::printf("%-*s  %-*s  %-20s %-7s %11s %11s %16s %12s  %s\n", w.name, "kernel", w.what, "call", "shape", "regime",
                "median", "min", "rate", "weights", "verified");
    std::fflush(stdout);
}

void print_table_row(const TableWidths& w, const Result& r) {
    const BenchCase& c = *r.c;
    std::string shape = c.kind == "lhs_packer"   ? "M=" + std::to_string(c.shape.m) + " K=" + std::to_string(c.shape.k)
                        : c.kind == "rhs_packer" ? "N=" + std::to_string(c.shape.n) + " K=" + std::to_string(c.shape.k)
                                                 : c.shape.str();
    if (c.bl) shape += " bl" + std::to_string(c.bl);
    std::string median = r.calls ? fmt("%.3f ms", r.median * 1e3) : "-";
    std::string min = r.calls ? fmt("%.3f ms", r.min * 1e3) : "-";
    std::string rate = r.calls ? fmt("%.2f ", c.ops / r.median * 1e-9) + c.ops_unit : "-";
    std::string wb = r.calls && c.weight_bytes > 0 ? fmt("%.2f GB/s", c.weight_bytes / r.median * 1e-9) : "";
    std::printf("%-*s  %-*s  %-20s %-7s %11s %11s %16s %12s  %s\n", w.name, c.name.c_str(), w.what, c.what.c_str(),
                shape.c_str(), r.regime.c_str(), median.c_str(), min.c_str(), rate.c_str(), wb.c_str(), r.status.c_str());
    std::fflush(stdout);
}

}  // namespace
}  // namespace kai_bench

int main(int argc, char** argv) {
    using namespace kai_bench;
    Cli cli = parse(argc, argv);
    if (cli.list) return list();
    cli.opt.emulated = cli.emulated_flag || running_under_emulator();
    if (cli.opt.emulated && !cli.timing_given) {
        cli.opt.repetitions = 1;  // emulated times mean nothing: verify, then time one call
    }

    std::vector<BenchCase> cases;
    add_bf16_cases(cli.opt, cases);
    add_bf16f16_cases(cli.opt, cases);
    add_qsi4cxp_cases(cli.opt, cases);
    add_qsi4c32p_cases(cli.opt, cases);
    add_qsi8d32p_cases(cli.opt, cases);
    add_qai4c32p_cases(cli.opt, cases);
    add_int4_pack_cases(cli.opt, cases);
    add_qsi8cxp_cases(cli.opt, cases);
    add_sme_float_cases(cli.opt, cases);
    add_qsi4cxpf16_cases(cli.opt, cases);
    add_bf16_qai8dxp_cases(cli.opt, cases);

    add_f16p_qsi4c32p_cases(cli.opt, cases);
    add_kquant_cases(cli.opt, cases);
    add_qsu2cxp_cases(cli.opt, cases);
    add_sme_f16_cases(cli.opt, cases);
    add_imatmul_cases(cli.opt, cases);
    add_qai8_static_cases(cli.opt, cases);
    add_f32_neon_cases(cli.opt, cases);

    // Each entry of kai/kernels.bzl must have a case. With --shape or --bl an adapter may skip a
    // shape a kernel cannot take (K not a multiple of bl); the default suite covers everything.
    const std::vector<const Entry*> missing = uncovered(cases);
    for (const Entry* e : missing) {
        std::fprintf(stderr, "kai_benchmark: %s %s has no benchmark case%s\n", e->kind, e->name,
                     cli.opt.shapes.empty() && cli.opt.bl == 32 ? "" : " at these shapes");
    }
    if (!missing.empty() && cli.opt.shapes.empty() && cli.opt.bl == 32) return 1;

    std::regex re;
    try {
        re = std::regex(cli.filter);
    } catch (const std::regex_error&) {
        std::fprintf(stderr, "kai_benchmark: bad --filter regex '%s'\n", cli.filter.c_str());
        return 2;
    }
    Clock clock;
    if (cli.format == "table") {
        std::printf("kai %s benchmark: %u thread(s), CPU features: %s, clock: %s\n", kai_get_version(), cli.opt.threads,
                    kai_test::feature_names(kai_test::cpu_features()).c_str(), clock.name());
        if (cli.opt.emulated) {
            std::printf("NOTE: running under an emulator: times are NOT hardware performance; results are verified "
                        "on sampled rows and columns%s.\n",
                        cli.opt.shapes.empty() ? ", and the suite keeps one decode and one prefill shape per kernel"
                                               : "");
        }
    }
    Pool pool(cli.opt.threads);
    std::vector<const BenchCase*> selected;
    for (const BenchCase& c : cases) {
        if (std::regex_search(c.name, re)) selected.push_back(&c);
    }
    const TableWidths widths = table_widths(selected);
    if (cli.format == "table" && !selected.empty()) print_table_header(widths);
    std::vector<Result> results;
    int failures = 0;
    for (const BenchCase* c : selected) {
        results.push_back(run_case(*c, cli.opt, pool, clock));
        if (results.back().status.rfind("FAIL", 0) == 0) ++failures;
        if (cli.format == "table") print_table_row(widths, results.back());
    }
    print_results(results, cli.format, cli.opt, clock);
    if (results.empty()) {
        std::fprintf(stderr, "kai_benchmark: no case matches --filter '%s'\n", cli.filter.c_str());
        return 2;
    }
    if (failures > 0) {
        std::fprintf(stderr, "kai_benchmark: %d case(s) failed verification\n", failures);
        return 1;
    }
    return 0;
}
