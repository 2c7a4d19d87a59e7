/*
 * export_junit.c: the gate's verdicts as JUnit XML (export_junit.h).
 *
 * There is no single JUnit XML standard; this writes the subset that
 * Jenkins reads both through its JUnit plugin (dtkit's junit-4.xsd:
 * testsuites > testsuite > properties?, testcase*, where a testcase holds
 * skipped?, failure*, system-out*; <skipped> has text and no attributes,
 * <testsuites> no skipped count) and through the xUnit plugin (its
 * junit-10.xsd), and that GitLab's unit test reports (docs.gitlab.com/ci/
 * testing/unit_test_reports: testcase name and classname, failure text,
 * skipped) read.  tests/tools/junit.xsd is that intersection as an XML
 * Schema; the tests validate every report against it and against the
 * xUnit plugin's own junit-10.xsd with xmllint.
 *
 * Test case names are export_ci_name's (the display name, then the
 * parameters), made unique with " #2" as GitLab keeps only the first of
 * equal names; classname is "cbench.METRIC", which GitLab shows as the
 * suite.
 */
#include "export_junit.h"
#include "export.h"
#include "multitest.h"
#include "xalloc.h"

#include <cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* s as XML character data or attribute text: valid UTF-8 (invalid bytes
 * as U+FFFD), markup escaped, control characters XML 1.0 forbids
 * replaced by U+FFFD. */
static void xml_text(FILE *f, const char *s)
{
	cJSON *clean = export_json_text(s ? s : "");
	for (const char *p = clean->valuestring; *p; p++) {
		unsigned char c = (unsigned char)*p;
		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\n': fputs("&#10;", f); break;
		case '\t': fputs("&#9;", f); break;
		case '\r': fputs("&#13;", f); break;
		default:
			if (c < 0x20)
				fputs("\xEF\xBF\xBD", f);
			else
				fputc(c, f);
		}
	}
	cJSON_Delete(clean);
}

static const char *unit_of(int metric)
{
	enum metric_unit u = metric == CMP_CPU_TIME
			     ? UNIT_SECONDS : metric_info((enum metric_id)metric)->unit;
	return u == UNIT_SECONDS ? "s" : u == UNIT_BYTES ? "bytes"
	       : u == UNIT_CUSTOM ? metric_info((enum metric_id)metric)->unit_text : "";
}

static bool matched(const struct cmp_row *r)
{
	return r->base && r->new;
}

/* "mean 0.5123 s, sd 0.0123 s, 10 runs" */
static void side(FILE *f, const char *what, double mean, double sd, size_t n,
		 const char *unit)
{
	char buf[160];
	snprintf(buf, sizeof buf, "%s: mean %.6g%s%s, sd %.6g%s%s, %zu runs\n",
		 what, mean, *unit ? " " : "", unit, sd, *unit ? " " : "", unit, n);
	xml_text(f, buf);
}

/* A percentage with two significant digits, never in e-notation. */
static const char *pct(double v, char buf[32])
{
	snprintf(buf, 32, v >= 10 ? "%.0f" : v >= 1 ? "%.1f" : "%.2g", v);
	return buf;
}

/* The one-line summary of a row: ratio, interval, threshold, p, and the
 * resolution (the smallest change the comparison could tell from noise);
 * for a pass blind at its threshold, the regression that could have
 * passed (gate_row_unresolved). */
static void summary(char *buf, size_t len, const struct cmp_report *rep,
		    const struct cmp_row *r)
{
	char res[32];
	double thr = isfinite(r->threshold) && r->threshold > 0 ? r->threshold
								 : rep->threshold;
	const char *key = gate_metric_key(rep->metric);
	if (!isfinite(r->st.ratio_lo) || !isfinite(r->st.ratio_hi) ||
	    !isfinite(r->p)) {
		snprintf(buf, len, "%s undecided: too few runs (base %zu, new %zu) "
			 "or too noisy to bound the ratio", key, r->base_n, r->new_n);
		return;
	}
	if (r->st.exact) {
		snprintf(buf, len, "%s %s: new/base %.6g (exact counts, the same "
			 "in every run), threshold %g%%", key,
			 gate_verdict_name(r->verdict), r->st.ratio, thr * 100);
		return;
	}
	int n = snprintf(buf, len, "%s %s: new/base %.4g (%g%% CI %.4g to %.4g), "
			 "threshold %g%%, p = %.3g, resolution %s%%", key,
			 gate_verdict_name(r->verdict), r->st.ratio,
			 (rep->family_size > 1 ? rep->ci_level : rep->confidence) * 100,
			 r->st.ratio_lo, r->st.ratio_hi,
			 thr * 100, r->p, pct(stats_resolution(&r->st) * 100, res));
	double blind = gate_row_unresolved(rep, r);
	if (blind > 0 && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "; it could not resolve its "
			 "threshold: a regression up to %c%s%% could have passed",
			 rep->metric >= 0 && rep->metric < MET_COUNT &&
			 metric_info((enum metric_id)rep->metric)->higher_is_better
			 ? '-' : '+', pct(blind * 100, res));
}

/* A pass that could not resolve its threshold fails under
 * --require-resolution (exit 4): a <failure type="unresolved">. */
static bool blind_failure(const struct cmp_report *rep, const struct cmp_row *r,
			  bool require_resolution)
{
	return require_resolution && r->verdict == CMP_NOISE &&
	       gate_row_unresolved(rep, r) > 0;
}

static void testcase(FILE *f, const struct cmp_report *rep, size_t k,
		     const char *metric, bool require_resolution)
{
	const struct cmp_row *r = &rep->rows[k];
	char *name = export_ci_name(r->new->name, r->new->params, r->new->n_params);
	size_t seen = 1;
	for (size_t j = 0; j < k; j++)
		seen += matched(&rep->rows[j]) &&
			strcmp(rep->rows[j].new->name, r->new->name) == 0;
	if (seen > 1) {
		char *t = xasprintf("%s #%zu", name, seen);
		free(name);
		name = t;
	}
	fputs("    <testcase classname=\"cbench.", f);
	xml_text(f, metric);
	fputs("\" name=\"", f);
	xml_text(f, name);
	fputs("\">\n", f);
	free(name);
	char line[640];
	summary(line, sizeof line, rep, r);
	const char *unit = unit_of(rep->metric);
	bool blind = blind_failure(rep, r, require_resolution);
	if (r->verdict == CMP_UNDECIDED) {
		/* junit-4.xsd: <skipped> holds text, no message attribute */
		fputs("      <skipped>", f);
		xml_text(f, line);
		fputs("</skipped>\n", f);
	} else if (r->verdict == CMP_REGRESSION || blind) {
		fprintf(f, "      <failure type=\"%s\" message=\"",
			blind ? "unresolved" : "regression");
		xml_text(f, line);
		fputs("\">", f);
		side(f, "base", r->base_mean, r->base_sd, r->base_n, unit);
		side(f, "new", r->new_mean, r->new_sd, r->new_n, unit);
		fputs("</failure>\n", f);
	} else {
		fputs("      <system-out>", f);
		xml_text(f, line);
		xml_text(f, "\n");
		side(f, "base", r->base_mean, r->base_sd, r->base_n, unit);
		side(f, "new", r->new_mean, r->new_sd, r->new_n, unit);
		fputs("</system-out>\n", f);
	}
	fputs("    </testcase>\n", f);
}

static void property(FILE *f, const char *name, const char *value)
{
	fputs("      <property name=\"", f);
	xml_text(f, name);
	fputs("\" value=\"", f);
	xml_text(f, value);
	fputs("\"/>\n", f);
}

/* The report's failures: its regressions, and its blind passes when
 * they fail. */
static size_t failures_of(const struct cmp_report *rep, bool require_resolution)
{
	size_t n = rep->count[CMP_REGRESSION];
	for (size_t k = 0; k < rep->n_rows; k++)
		n += matched(&rep->rows[k]) &&
		     blind_failure(rep, &rep->rows[k], require_resolution);
	return n;
}

static void suite(FILE *f, const struct cmp_report *rep, bool require_resolution)
{
	const char *metric = gate_metric_key(rep->metric);
	size_t tests = 0;
	for (size_t k = 0; k < rep->n_rows; k++)
		tests += matched(&rep->rows[k]);
	fputs("  <testsuite name=\"cbench gate: ", f);
	xml_text(f, metric);
	fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
		"skipped=\"%zu\">\n", tests, failures_of(rep, require_resolution),
		rep->count[CMP_UNDECIDED]);
	char buf[64];
	fputs("    <properties>\n", f);
	property(f, "baseline", rep->base->origin);
	property(f, "new", rep->new->origin);
	property(f, "metric", metric);
	property(f, "statistic", rep->low_quantile ? "10th percentile" : "mean");
	snprintf(buf, sizeof buf, "%g", rep->threshold);
	property(f, "threshold", buf);
	snprintf(buf, sizeof buf, "%g", rep->confidence);
	property(f, "confidence", buf);
	if (rep->family_size > 1) {   /* the family's error control */
		property(f, "p_adjustment", MULTITEST_METHOD);
		snprintf(buf, sizeof buf, "%zu", rep->family_size);
		property(f, "family_size", buf);
		snprintf(buf, sizeof buf, "%g", rep->ci_level);
		property(f, "ci_level", buf);
	}
	snprintf(buf, sizeof buf, "%zu", rep->count[CMP_ONLY_BASE]);
	property(f, "only_in_baseline", buf);
	snprintf(buf, sizeof buf, "%zu", rep->count[CMP_ONLY_NEW]);
	property(f, "only_in_new", buf);
	fputs("    </properties>\n", f);
	for (size_t k = 0; k < rep->n_rows; k++)
		if (matched(&rep->rows[k]))
			testcase(f, rep, k, metric, require_resolution);
	fputs("  </testsuite>\n", f);
}

int export_junit_print(FILE *f, const struct cmp_report *const *reps, size_t n,
		       bool require_resolution)
{
	size_t tests = 0, failures = 0;
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < reps[i]->n_rows; k++)
			tests += matched(&reps[i]->rows[k]);
		failures += failures_of(reps[i], require_resolution);
	}
	/* No skipped count here: junit-4.xsd and junit-10.xsd have none on
	 * <testsuites> (each <testsuite> has its own). */
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites name=\"cbench\" tests=\"%zu\" failures=\"%zu\" "
		"errors=\"0\">\n", tests, failures);
	for (size_t i = 0; i < n; i++)
		suite(f, reps[i], require_resolution);
	fputs("</testsuites>\n", f);
	return ferror(f) ? -1 : 0;
}

int export_junit_write(const char *path, const char *opt,
		       const struct cmp_report *const *reps, size_t n,
		       bool require_resolution, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (m == NULL) {
		snprintf(err, errlen, "%s: out of memory", opt);
		return -1;
	}
	int rc = export_junit_print(m, reps, n, require_resolution);
	if (fclose(m) != 0)
		rc = -1;
	if (rc == 0)
		rc = export_write_text(path, opt, text, len, err, errlen);
	else
		snprintf(err, errlen, "%s: cannot format the report", opt);
	free(text);
	return rc;
}
