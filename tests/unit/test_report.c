/*
 * test_report.c: the terminal report's formatting helpers (export_text.c)
 * and the run-loop's stop notes and --precision cap (bench.c), checked
 * without running anything.
 */
#include "bench.h"
#include "diag.h"
#include "export_text.h"
#include "results.h"
#include "stats.h"
#include "unit.h"

#include <math.h>
#include <string.h>

static void bytes_switch_at_1000(void)
{
	char b[32];
	text_bytes(512, b, sizeof b);
	CHECK_STR(b, "512 B");
	text_bytes(999, b, sizeof b);
	CHECK_STR(b, "999 B");
	text_bytes(1000, b, sizeof b);
	CHECK_STR(b, "0.98 KiB");
	text_bytes(1015.8 * 1024, b, sizeof b);   /* was "1015.8 KiB" */
	CHECK_STR(b, "0.99 MiB");
	text_bytes(9.0 * 1024 * 1024, b, sizeof b);
	CHECK_STR(b, "9.0 MiB");
	text_bytes(999.0 * 1024, b, sizeof b);
	CHECK_STR(b, "999.0 KiB");
}

static void precision_default_cap(void)
{
	struct plan_stop cfg = {.min_runs = 10, .min_time_s = 3, .precision = 0.01};
	CHECK(bench_default_cap(&cfg));
	CHECK(cfg.max_time_s == BENCH_PRECISION_MAX_TIME_S);
	struct plan_stop capped = {.min_runs = 10, .min_time_s = 3, .precision = 0.01,
				.max_runs = 50};
	CHECK(!bench_default_cap(&capped));
	CHECK(capped.max_time_s == 0);
	struct plan_stop plain = {.min_runs = 10, .min_time_s = 3};
	CHECK(!bench_default_cap(&plain));
	CHECK(plain.max_time_s == 0);

	char buf[256];
	cfg.max_time_s = 60;
	CHECK_STR(bench_stop_text(STOP_MAX_TIME, &cfg, true, 2119, 60.1, 0.02,
				  buf, sizeof buf),
		  "stopped at 60 s (the default cap of --precision without "
		  "--max-runs or --max-time) before reaching --precision 1 %");
}

/* Each goal not reached is named, and only those. */
static void stop_text_names_goals(void)
{
	char buf[256];
	struct plan_stop cfg = {.min_runs = 10, .min_time_s = 3, .max_runs = 3};
	CHECK_STR(bench_stop_text(STOP_MAX_RUNS, &cfg, false, 3, 0.03, NAN, buf,
				  sizeof buf),
		  "stopped at --max-runs 3 before reaching --min-runs 10 and "
		  "--min-time 3 s");
	cfg.min_runs = 2;
	CHECK_STR(bench_stop_text(STOP_MAX_RUNS, &cfg, false, 3, 0.03, NAN, buf,
				  sizeof buf),
		  "stopped at --max-runs 3 before reaching --min-time 3 s");
	struct plan_stop t = {.min_runs = 10, .min_time_s = 0.01, .max_time_s = 0.5};
	CHECK_STR(bench_stop_text(STOP_MAX_TIME, &t, false, 4, 0.6, NAN, buf,
				  sizeof buf),
		  "stopped at --max-time 0.5 s before reaching --min-runs 10");
	struct plan_stop p = {.min_runs = 10, .min_time_s = 3, .max_runs = 15,
			   .precision = 0.05};
	CHECK_STR(bench_stop_text(STOP_MAX_RUNS, &p, false, 15, 1, 0.19, buf,
				  sizeof buf),
		  "stopped at --max-runs 15 before reaching --precision 5 % "
		  "(at least 20 runs)");
	p.max_runs = 25;
	CHECK_STR(bench_stop_text(STOP_MAX_RUNS, &p, false, 25, 1, 0.19, buf,
				  sizeof buf),
		  "stopped at --max-runs 25 before reaching --precision 5 %");
	CHECK(bench_stop_text(STOP_PRECISION, &p, false, 15, 1, 0.01, buf,
			      sizeof buf) == NULL);
}

int main(void)
{
	stats_init();
	diag_set_quiet(true);
	RUN(bytes_switch_at_1000);
	RUN(precision_default_cap);
	RUN(stop_text_names_goals);
	UNIT_EXIT();
}
