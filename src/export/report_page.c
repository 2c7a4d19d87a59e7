/*
 * report_page.c: `cbench report` (see report_page.h).  Every input is read
 * and checked, and the output is checked not to be one of them, before
 * anything is written; the page then replaces OUT.html atomically
 * (export_write_atomic), so a failure leaves any previous page as it was.
 *
 * A page of saved results goes through the same analysis as a run's, at
 * the file's confidence level (or --confidence) and paired by rounds when
 * the file says its runs were interleaved, so the page agrees with the
 * run's own report.
 */
#include "report_page.h"
#include "export.h"
#include "export_html.h"
#include "fileid.h"
#include "report_load.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct page {
	const struct report_page_options *po;
	struct report_input *in;
	size_t n_in;
	char *sources;
	/* a page of results */
	struct export_doc *doc;
	/* a comparison */
	struct gate_result gate;
};

static int fill_results(FILE *f, void *arg)
{
	const struct page *p = arg;
	const struct report_input *first = &p->in[0];
	struct html_meta m = {.title = p->po->title,
			      .measured_by = first->measured_by,
			      .command_line = p->n_in == 1 ? first->command_line : NULL,
			      .sources = p->sources, .machine = &first->machine,
			      .have_machine = first->have_machine};
	char opts[96];
	snprintf(opts, sizeof opts, "confidence %g %%", p->doc->an->opt.confidence * 100);
	m.options = opts;
	return export_html_page(f, p->doc, &m);
}

static int fill_compare(FILE *f, void *arg)
{
	const struct page *p = arg;
	const struct report_input *nw = &p->in[1];
	struct html_meta m = {.title = p->po->title,
			      .measured_by = nw->measured_by,
			      .sources = p->sources, .machine = &nw->machine,
			      .have_machine = nw->have_machine};
	return export_html_compare(f, &p->gate.rep, &m);
}

/* Read every input; the output must be none of them. */
static int load_inputs(struct page *p, char *err, size_t errlen)
{
	const struct report_page_options *po = p->po;
	p->n_in = po->inputs.n;
	p->in = xcalloc(p->n_in, sizeof *p->in);
	p->sources = xstrdup("");
	for (size_t i = 0; i < p->n_in; i++) {
		const char *path = po->inputs.v[i];
		if (fileid_same(path, po->out)) {
			snprintf(err, errlen, "-o '%s' is the input '%s': an input is "
				 "never overwritten", po->out, path);
			return -1;
		}
		if (report_load(path, &p->in[i], err, errlen) != 0)
			return -1;
		char *s = xasprintf("%s%s%s", p->sources,
				    i == 0 ? "" : po->compare ? " → " : ", ", path);
		free(p->sources);
		p->sources = s;
	}
	return 0;
}

/* The analysis of every input's benchmarks, as one document. */
static void analyse(struct page *p, struct bench_outcome *o, struct export_context *ctx)
{
	const struct report_page_options *po = p->po;
	memset(o, 0, sizeof *o);
	o->results = report_results(p->in, p->n_in, &o->n);
	o->reference = -1;
	o->order = p->n_in == 1 ? p->in[0].order : ORDER_SEQUENTIAL;
	bool equal = true;
	for (size_t i = 1; i < o->n; i++)
		equal &= o->results[i]->n_runs == o->results[0]->n_runs;
	for (size_t i = 0; i < o->n; i++)
		o->split_by_state |= o->results[i]->group != 0;
	if (!equal)
		o->order = ORDER_SEQUENTIAL;
	o->exec_exact = p->in[0].set->format == CMP_FMT_CBENCH;
	double c = po->confidence_given || !isfinite(p->in[0].confidence)
		   ? po->confidence : p->in[0].confidence;
	struct analysis_options opt = {.confidence = c, .seed = GATE_DEFAULT_SEED,
				       .paired = o->order != ORDER_SEQUENTIAL,
				       .summary_by_mean = true};
	struct analysis *an = analysis_new(&opt);
	analysis_update(an, o->results, o->n, -1);
	ctx->opts = &po->exports;
	p->doc = export_doc_new(ctx, o, an);
	p->doc->owned = an;     /* freed with the document */
}

static int compare(struct page *p, char *err, size_t errlen)
{
	const struct report_page_options *po = p->po;
	struct gate_options opt = {.metric = -1, .threshold = po->fail_if_slower,
				   .confidence = po->confidence,
				   .seed = GATE_DEFAULT_SEED, .match_by = po->match_by};
	gate_run(&opt, p->in[0].set, p->in[1].set, &p->gate);
	if (p->gate.exit_code == CBENCH_EXIT_USAGE) {
		snprintf(err, errlen, "%s", p->gate.error);
		return -1;
	}
	return 0;
}

int report_page_build(const struct report_page_options *po, char *err,
		      size_t errlen)
{
	struct page p = {.po = po};
	struct bench_outcome o = {0};
	struct export_context ctx = {0};
	bool gated = false;
	int rc = CBENCH_EXIT_USAGE;
	if (load_inputs(&p, err, errlen) != 0)
		goto out;
	if (po->compare) {
		gated = true;
		if (compare(&p, err, errlen) != 0)
			goto out;
	} else {
		analyse(&p, &o, &ctx);
	}
	char msg[DIAG_MSG_MAX];
	rc = CBENCH_EXIT_OK;
	if (export_write_atomic(po->out,
				po->compare ? fill_compare : fill_results,
				&p, msg, sizeof msg) != 0) {
		snprintf(err, errlen, "-o: %s", msg);
		rc = CBENCH_EXIT_FAILURE;
	}
out:
	if (gated)
		gate_result_free(&p.gate);
	export_doc_free(p.doc);
	bench_free_outcome(&o);
	for (size_t i = 0; i < p.n_in; i++)
		report_input_free(&p.in[i]);
	free(p.in);
	free(p.sources);
	return rc;
}
