/*
 * profile_diff.c: where a difference between two per-function profiles
 * is, and the call trees of (differential) flame graphs (see profile.h).
 *
 * The diff answers "+12.3 % instructions: +9.1 points in parse_line, +2.8
 * in memcpy": each function's self cost moved by some amount, and that
 * amount over the base's total is its share, in points, of the total's
 * change.  Self costs add up to the total, so the points of all functions
 * add up to the total's change exactly, which inclusive costs (nested in
 * each other) would not.
 *
 * The trees are pure data for a renderer: a flame graph's frames from a
 * profile's call edges, and two trees merged by path for a differential
 * flame graph (Brendan Gregg's, where a frame is coloured by how its
 * width moved).
 */
#include "profile.h"
#include "xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- matching the functions of two profiles ---- */

enum match_key { KEY_FULL, KEY_BASENAMES, KEY_NAME };

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static int key_cmp(const struct profile_func *a, const struct profile_func *b,
		   enum match_key key)
{
	int c = strcmp(a->name, b->name);
	if (c != 0 || key == KEY_NAME)
		return c;
	if (key == KEY_BASENAMES) {
		c = strcmp(base_name(a->file), base_name(b->file));
		return c ? c : strcmp(base_name(a->object), base_name(b->object));
	}
	c = strcmp(a->file, b->file);
	return c ? c : strcmp(a->object, b->object);
}

struct sort_ctx {
	const struct profile *p;
	enum match_key key;
};

/* By the pass's key, then the whole key (so that pairs within a run of
 * equal keys come in a fixed order). */
static int by_key(const void *x, const void *y, void *arg)
{
	const struct sort_ctx *s = arg;
	const struct profile_func *a = &s->p->funcs[*(const size_t *)x];
	const struct profile_func *b = &s->p->funcs[*(const size_t *)y];
	int c = key_cmp(a, b, s->key);
	return c ? c : key_cmp(a, b, KEY_FULL);
}

/* The functions of p not matched yet, sorted by key. */
static size_t *unmatched(const struct profile *p, const size_t *match,
			 enum match_key key, size_t *n)
{
	size_t *u = xreallocarray(NULL, p->n_funcs ? p->n_funcs : 1, sizeof *u);
	*n = 0;
	for (size_t f = 0; f < p->n_funcs; f++)
		if (match[f] == PROFILE_NONE)
			u[(*n)++] = f;
	struct sort_ctx ctx = {p, key};
	qsort_r(u, *n, sizeof *u, by_key, &ctx);
	return u;
}

/* One pass: runs of equal keys on both sides are paired in order; by
 * name alone only a run of one on each side. */
static void match_pass(const struct profile *a, const struct profile *b,
		       size_t *ma, size_t *mb, enum match_key key)
{
	size_t na, nb, i = 0, j = 0;
	size_t *ua = unmatched(a, ma, key, &na), *ub = unmatched(b, mb, key, &nb);
	while (i < na && j < nb) {
		int c = key_cmp(&a->funcs[ua[i]], &b->funcs[ub[j]], key);
		if (c < 0) {
			i++;
			continue;
		}
		if (c > 0) {
			j++;
			continue;
		}
		size_t ri = 1, rj = 1;
		while (i + ri < na && key_cmp(&a->funcs[ua[i]], &a->funcs[ua[i + ri]], key) == 0)
			ri++;
		while (j + rj < nb && key_cmp(&b->funcs[ub[j]], &b->funcs[ub[j + rj]], key) == 0)
			rj++;
		if (key != KEY_NAME || (ri == 1 && rj == 1))
			for (size_t k = 0; k < ri && k < rj; k++) {
				ma[ua[i + k]] = ub[j + k];
				mb[ub[j + k]] = ua[i + k];
			}
		i += ri;
		j += rj;
	}
	free(ua);
	free(ub);
}

static void fill_delta(struct profile_delta *d, const struct profile *base,
		       const struct profile *cand, size_t b, size_t c, int ev)
{
	const struct profile_func *fb = b != PROFILE_NONE ? &base->funcs[b] : NULL;
	const struct profile_func *fc = c != PROFILE_NONE ? &cand->funcs[c] : NULL;
	const struct profile_func *named = fc ? fc : fb;
	d->name = named->name;
	d->file = named->file;
	d->object = named->object;
	d->base = b;
	d->cand = c;
	d->base_self = fb ? fb->self[ev] : 0;
	d->cand_self = fc ? fc->self[ev] : 0;
	d->base_incl = fb ? fb->incl[ev] : 0;
	d->cand_incl = fc ? fc->incl[ev] : 0;
	d->self_delta = d->cand_self - d->base_self;
	d->incl_delta = d->cand_incl - d->base_incl;
	d->points = d->self_delta / base->total[ev] * 100;
}

/* Largest |points| first; then largest |incl_delta|; then by name. */
static int by_points(const void *x, const void *y)
{
	const struct profile_delta *a = x, *b = y;
	double pa = fabs(a->points), pb = fabs(b->points);
	if (pa != pb)
		return pa > pb ? -1 : 1;
	pa = fabs(a->incl_delta);
	pb = fabs(b->incl_delta);
	if (pa != pb)
		return pa > pb ? -1 : 1;
	int c = strcmp(a->name, b->name);
	if (c == 0)
		c = strcmp(a->file, b->file);
	return c ? c : strcmp(a->object, b->object);
}

int profile_diff(const struct profile *base, const struct profile *cand,
		 enum vg_event ev, struct profile_diff *out, char *err,
		 size_t errlen)
{
	if ((unsigned)ev >= VG_EVENTS || !base->has[ev] || !cand->has[ev]) {
		snprintf(err, errlen, "the %s profile has no %s counts",
			 (unsigned)ev < VG_EVENTS && base->has[ev] ? "candidate" : "base",
			 vgout_event_name(ev));
		return -1;
	}
	if (!(base->total[ev] > 0)) {
		snprintf(err, errlen, "the base profile counts no %s", vgout_event_name(ev));
		return -1;
	}
	size_t *mb = xreallocarray(NULL, base->n_funcs ? base->n_funcs : 1, sizeof *mb);
	size_t *mc = xreallocarray(NULL, cand->n_funcs ? cand->n_funcs : 1, sizeof *mc);
	for (size_t f = 0; f < base->n_funcs; f++)
		mb[f] = PROFILE_NONE;
	for (size_t f = 0; f < cand->n_funcs; f++)
		mc[f] = PROFILE_NONE;
	match_pass(base, cand, mb, mc, KEY_FULL);
	match_pass(base, cand, mb, mc, KEY_BASENAMES);
	match_pass(base, cand, mb, mc, KEY_NAME);
	memset(out, 0, sizeof *out);
	out->d = xreallocarray(NULL, base->n_funcs + cand->n_funcs + 1, sizeof *out->d);
	for (size_t f = 0; f < base->n_funcs; f++)
		fill_delta(&out->d[out->n++], base, cand, f, mb[f], ev);
	for (size_t f = 0; f < cand->n_funcs; f++)
		if (mc[f] == PROFILE_NONE)
			fill_delta(&out->d[out->n++], base, cand, PROFILE_NONE, f, ev);
	qsort(out->d, out->n, sizeof *out->d, by_points);
	out->base_total = base->total[ev];
	out->cand_total = cand->total[ev];
	out->change_pct = (out->cand_total - out->base_total) / out->base_total * 100;
	free(mb);
	free(mc);
	return 0;
}

void profile_diff_free(struct profile_diff *d)
{
	if (d == NULL)
		return;
	free(d->d);
	memset(d, 0, sizeof *d);
}

/* ---- flame trees ---- */

/*
 * Each process (a part of the profile, one out file) gets its own tree,
 * from its own calls: merged into one call graph, the processes would
 * share their libraries' functions (__libc_start_main calls the main of
 * every program of the run) and the scaling would hang one program's
 * costs under another's.  The trees are then merged by path, as folded
 * stacks of several processes are.
 */

#define FLAME_DEPTH_MAX 1024

struct flame_build {
	const struct profile *p;   /* one part */
	int ev;
	size_t *off, *idx;         /* profile_out_calls */
	size_t *path;              /* the functions from depth 1 to the node */
	size_t max_depth;
	double min_value;
	struct flame_tree *t;
	size_t cap;
};

struct child {
	size_t func;
	double value;
};

static int by_value(const void *x, const void *y, void *arg)
{
	const struct child *a = x, *b = y;
	const struct profile *p = arg;
	if (a->value != b->value)
		return a->value > b->value ? -1 : 1;
	return strcmp(p->funcs[a->func].name, p->funcs[b->func].name);
}

/* Append the children, largest first, to node n (their values scaled down
 * together if they add up to more than n's), and set n's self. */
static void add_children(struct flame_build *b, size_t n, struct child *c, size_t k)
{
	double sum = 0, v = b->t->nodes[n].value;
	for (size_t i = 0; i < k; i++)
		sum += c[i].value;
	for (size_t i = 0; i < k && sum > v; i++)
		c[i].value *= v / sum;
	qsort_r(c, k, sizeof *c, by_value, (void *)b->p);
	xgrow((void **)&b->t->nodes, &b->cap, b->t->n + k, sizeof *b->t->nodes);
	struct flame_node *node = &b->t->nodes[n];
	node->first_child = b->t->n;
	node->n_children = k;
	node->self = v;
	for (size_t i = 0; i < k; i++) {
		node->self -= c[i].value;
		b->t->nodes[b->t->n++] = (struct flame_node){
			.name = b->p->funcs[c[i].func].name, .func = c[i].func,
			.parent = n, .depth = node->depth + 1,
			.first_child = PROFILE_NONE, .value = c[i].value, .self = c[i].value,
		};
	}
	if (node->self < 0)
		node->self = 0;   /* rounding */
}

/* Node n's children: its function's calls, scaled by n's share of the
 * function's inclusive cost, but none to a function on the path. */
static void expand(struct flame_build *b, size_t n)
{
	const struct flame_node *node = &b->t->nodes[n];
	size_t f = node->func, depth = node->depth;
	double incl = b->p->funcs[f].incl[b->ev];
	if (depth >= b->max_depth || !(incl > 0))
		return;
	double scale = node->value / incl;
	size_t k = 0;
	struct child *c = xreallocarray(NULL, b->off[f + 1] - b->off[f] + 1, sizeof *c);
	for (size_t j = b->off[f]; j < b->off[f + 1]; j++) {
		const struct profile_call *call = &b->p->calls[b->idx[j]];
		double v = call->incl[b->ev] * scale;
		bool on_path = false;
		for (size_t d = 1; d <= depth && !on_path; d++)
			on_path = b->path[d] == call->callee;
		if (!on_path && v >= b->min_value && v > 0)
			c[k++] = (struct child){call->callee, v};
	}
	add_children(b, n, c, k);
	free(c);
	size_t first = b->t->nodes[n].first_child;
	for (size_t i = 0; i < k; i++) {
		b->path[depth + 1] = b->t->nodes[first + i].func;
		expand(b, first + i);
	}
}

/* The tree of one part: its roots are the functions nothing calls. */
static void part_tree(const struct profile *p, int ev, size_t max_depth,
		      double min_value, struct flame_tree *out)
{
	struct flame_build b = {
		.p = p, .ev = ev, .max_depth = max_depth, .min_value = min_value, .t = out,
	};
	profile_out_calls(p, &b.off, &b.idx);
	b.path = xreallocarray(NULL, max_depth + 2, sizeof *b.path);
	memset(out, 0, sizeof *out);
	out->total = p->total[ev];
	xgrow((void **)&out->nodes, &b.cap, 1, sizeof *out->nodes);
	out->nodes[0] = (struct flame_node){
		.name = "all", .func = PROFILE_NONE, .parent = PROFILE_NONE,
		.first_child = PROFILE_NONE, .value = out->total, .self = out->total,
	};
	out->n = 1;
	bool *called = xcalloc(p->n_funcs + 1, sizeof *called);
	for (size_t c = 0; c < p->n_calls; c++)
		if (p->calls[c].caller != p->calls[c].callee)
			called[p->calls[c].callee] = true;
	struct child *roots = xreallocarray(NULL, p->n_funcs + 1, sizeof *roots);
	size_t k = 0;
	for (size_t f = 0; f < p->n_funcs; f++)
		if (!called[f] && p->funcs[f].incl[ev] >= min_value && p->funcs[f].incl[ev] > 0)
			roots[k++] = (struct child){f, p->funcs[f].incl[ev]};
	add_children(&b, 0, roots, k);
	for (size_t i = 0; i < k; i++) {
		b.path[1] = out->nodes[1 + i].func;
		expand(&b, 1 + i);
	}
	free(roots);
	free(called);
	free(b.path);
	free(b.off);
	free(b.idx);
}

/* ---- trees merged by path ---- */

/* Node node of tree tree. */
struct member {
	size_t tree, node;
};

/* One path: the nodes it is in each tree, and its value on each side
 * (0: a flame tree's parts, or the base; 1: the candidate). */
struct group {
	const char *name;
	struct member *m;
	size_t k;
	double v[2];
};

struct merge {
	const struct flame_tree *trees;
	size_t ntrees;
	const int *side;           /* of each tree */
	double min_value;          /* smaller paths are not merged */
	/* Append n nodes for the groups, children of node parent; returns
	 * the index of the first. */
	size_t (*emit)(struct merge *m, size_t parent, const struct group *g, size_t n);
	void *out;
	size_t cap;
	const size_t *const *maps; /* flame: each part's function indices */
};

static int by_larger(const void *x, const void *y)
{
	const struct group *a = x, *b = y;
	double va = fmax(a->v[0], a->v[1]), vb = fmax(b->v[0], b->v[1]);
	if (va != vb)
		return va > vb ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* The children of g's nodes grouped by name, largest first, without the
 * groups smaller than min_value. */
static struct group *child_groups(const struct merge *m, const struct group *g,
				  size_t *n)
{
	struct group *out = NULL;
	size_t cap = 0, k = 0;
	for (size_t i = 0; i < g->k; i++) {
		const struct flame_tree *t = &m->trees[g->m[i].tree];
		const struct flame_node *tn = &t->nodes[g->m[i].node];
		for (size_t c = tn->first_child; c < tn->first_child + tn->n_children; c++) {
			size_t j = 0;
			while (j < k && strcmp(out[j].name, t->nodes[c].name) != 0)
				j++;
			if (j == k) {
				xgrow((void **)&out, &cap, k + 1, sizeof *out);
				out[k++] = (struct group){.name = t->nodes[c].name};
			}
			out[j].m = xreallocarray(out[j].m, out[j].k + 1, sizeof *out[j].m);
			out[j].m[out[j].k++] = (struct member){g->m[i].tree, c};
			out[j].v[m->side[g->m[i].tree]] += t->nodes[c].value;
		}
	}
	size_t kept = 0;
	for (size_t j = 0; j < k; j++) {
		if (fmax(out[j].v[0], out[j].v[1]) >= m->min_value)
			out[kept++] = out[j];
		else
			free(out[j].m);
	}
	if (kept > 1)
		qsort(out, kept, sizeof *out, by_larger);
	*n = kept;
	return out;
}

static void merge_children(struct merge *m, size_t node, const struct group *g)
{
	size_t n;
	struct group *ch = child_groups(m, g, &n);
	size_t first = m->emit(m, node, ch, n);
	for (size_t i = 0; i < n; i++) {
		merge_children(m, first + i, &ch[i]);
		free(ch[i].m);
	}
	free(ch);
}

/* Merge the trees from their roots (node 0 of each) into m->out, whose
 * node 0 the caller has made. */
static void merge_trees(struct merge *m)
{
	struct group root = {.name = "all", .k = m->ntrees};
	root.m = xreallocarray(NULL, m->ntrees ? m->ntrees : 1, sizeof *root.m);
	for (size_t i = 0; i < m->ntrees; i++)
		root.m[i] = (struct member){i, 0};
	merge_children(m, 0, &root);
	free(root.m);
}

static size_t emit_flame(struct merge *m, size_t parent, const struct group *g, size_t n)
{
	struct flame_tree *t = m->out;
	size_t first = t->n;
	xgrow((void **)&t->nodes, &m->cap, first + n, sizeof *t->nodes);
	struct flame_node *p = &t->nodes[parent];
	p->first_child = first;
	p->n_children = n;
	for (size_t i = 0; i < n; i++) {
		const struct member *a = &g[i].m[0];
		size_t func = m->maps[a->tree][m->trees[a->tree].nodes[a->node].func];
		p->self -= g[i].v[0];
		t->nodes[t->n++] = (struct flame_node){
			.name = g[i].name, .func = func, .parent = parent,
			.depth = p->depth + 1, .first_child = PROFILE_NONE,
			.value = g[i].v[0], .self = g[i].v[0],
		};
	}
	if (p->self < 0)
		p->self = 0;   /* rounding */
	return first;
}

/* The tree of p: its parts' trees merged. */
static void build_tree(const struct profile *p, int ev, size_t depth, double min,
		       struct flame_tree *out)
{
	struct flame_tree *parts = xcalloc(p->files ? p->files : 1, sizeof *parts);
	const size_t **maps = xcalloc(p->files ? p->files : 1, sizeof *maps);
	int *side = xcalloc(p->files ? p->files : 1, sizeof *side);
	for (size_t i = 0; i < p->files; i++)
		part_tree(profile_part(p, i, &maps[i]), ev, depth, min, &parts[i]);
	memset(out, 0, sizeof *out);
	struct merge m = {
		.trees = parts, .ntrees = p->files, .side = side, .min_value = min,
		.emit = emit_flame, .out = out, .maps = maps,
	};
	out->total = p->total[ev];
	xgrow((void **)&out->nodes, &m.cap, 1, sizeof *out->nodes);
	out->nodes[0] = (struct flame_node){
		.name = "all", .func = PROFILE_NONE, .parent = PROFILE_NONE,
		.first_child = PROFILE_NONE, .value = out->total, .self = out->total,
	};
	out->n = 1;
	merge_trees(&m);
	for (size_t i = 0; i < p->files; i++)
		profile_flame_free(&parts[i]);
	free(parts);
	free(maps);
	free(side);
}

static size_t max_depth(const struct flame_options *opt)
{
	size_t depth = opt && opt->max_depth ? opt->max_depth : 64;
	return depth < FLAME_DEPTH_MAX ? depth : FLAME_DEPTH_MAX;
}

static double min_fraction(const struct flame_options *opt)
{
	return opt && opt->min_fraction > 0 ? opt->min_fraction : 0.001;
}

static int lacks(const struct profile *p, int ev, const char *which, char *err,
		 size_t errlen)
{
	if ((unsigned)ev < VG_EVENTS && p->has[ev])
		return 0;
	snprintf(err, errlen, "the %sprofile has no %s counts", which, vgout_event_name(ev));
	return -1;
}

int profile_flame(const struct profile *p, enum vg_event ev,
		  const struct flame_options *opt, struct flame_tree *out,
		  char *err, size_t errlen)
{
	if (lacks(p, ev, "", err, errlen) < 0)
		return -1;
	build_tree(p, ev, max_depth(opt), min_fraction(opt) * p->total[ev], out);
	return 0;
}

void profile_flame_free(struct flame_tree *t)
{
	if (t == NULL)
		return;
	free(t->nodes);
	memset(t, 0, sizeof *t);
}

/* ---- differential trees ---- */

static size_t emit_diff(struct merge *m, size_t parent, const struct group *g, size_t n)
{
	struct flame_diff *d = m->out;
	size_t first = d->n;
	xgrow((void **)&d->nodes, &m->cap, first + n, sizeof *d->nodes);
	d->nodes[parent].first_child = first;
	d->nodes[parent].n_children = n;
	for (size_t i = 0; i < n; i++)
		d->nodes[d->n++] = (struct flame_diff_node){
			.name = g[i].name, .parent = parent, .depth = d->nodes[parent].depth + 1,
			.first_child = PROFILE_NONE, .base = g[i].v[0], .cand = g[i].v[1],
		};
	return first;
}

/*
 * Both trees are built with a tenth of the threshold, then merged with the
 * threshold itself: a path above it on one side and below it on the other
 * keeps its small value there, where two trees of the same threshold would
 * show it falling to 0.
 */
int profile_flame_diff(const struct profile *base, const struct profile *cand,
		       enum vg_event ev, const struct flame_options *opt,
		       struct flame_diff *out, char *err, size_t errlen)
{
	if (lacks(base, ev, "base ", err, errlen) < 0 ||
	    lacks(cand, ev, "candidate ", err, errlen) < 0)
		return -1;
	double min = min_fraction(opt) * fmax(base->total[ev], cand->total[ev]);
	struct flame_tree trees[2];
	build_tree(base, ev, max_depth(opt), min / 10, &trees[0]);
	build_tree(cand, ev, max_depth(opt), min / 10, &trees[1]);
	static const int side[2] = {0, 1};
	struct merge m = {
		.trees = trees, .ntrees = 2, .side = side, .min_value = min,
		.emit = emit_diff, .out = out,
	};
	memset(out, 0, sizeof *out);
	out->base_total = trees[0].total;
	out->cand_total = trees[1].total;
	xgrow((void **)&out->nodes, &m.cap, 1, sizeof *out->nodes);
	out->nodes[0] = (struct flame_diff_node){
		.name = "all", .parent = PROFILE_NONE, .first_child = PROFILE_NONE,
		.base = out->base_total, .cand = out->cand_total,
	};
	out->n = 1;
	merge_trees(&m);
	profile_flame_free(&trees[0]);
	profile_flame_free(&trees[1]);
	return 0;
}

void profile_flame_diff_free(struct flame_diff *d)
{
	if (d == NULL)
		return;
	free(d->nodes);
	memset(d, 0, sizeof *d);
}
