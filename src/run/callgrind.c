/*
 * callgrind.c: callgrind's output files read into a per-function profile,
 * several of them (one per process) merged into one (see profile.h).
 *
 * The format is Valgrind's "Callgrind Format Specification" (the manual's
 * chapter 3, callgrind/docs/cl-format.xml).  What a reader must get right,
 * as callgrind 3.19 writes it (tests/fixtures/valgrind/ holds real files):
 *
 *   - Name compression: "fn=(12) parse_line" defines id 12, a later
 *     "fn=(12)" or "cfn=(12)" means it.  There are three tables: objects
 *     (ob=, cob=), files (fl=, fi=, fe=, cfi=, cfl=, jfi=) and functions
 *     (fn=, cfn=, jfn=); a name may first appear in any of its table's
 *     specifications (callgrind defines many in a cfn= or cob=).
 *   - Positions: "positions: line" (the default) or "instr line" (an
 *     address first, "0x" hex), each subposition absolute, "+N" or "-N"
 *     from the same subposition of the previous cost line, or "*" for the
 *     same.  The target position of a calls= line is not a cost line's and
 *     does not move them (callgrind writes the call's cost line relative
 *     to the previous cost line).
 *   - A function is (fn, the file of its fl=, ob).  fi=/fe= change the
 *     file of the next cost lines (inlined code) but not the function
 *     they count for; callgrind_annotate reports such lines as a function
 *     "file:name" of their own, which is why its self costs can differ for
 *     functions with inlined code.
 *   - calls=COUNT TARGET is followed by one cost line: the inclusive cost
 *     of those calls, for the call edge, not for the caller's self cost.
 *     The callee is cfn= in cfi= (default: the current file, fl= or the
 *     latest fi=/fe=) and cob= (default: the current object); the three
 *     hold for that one call only.
 *   - The file ends with "totals:", the sum of its cost lines: without it
 *     the file was cut short (callgrind writes it last).
 */
#include "profile.h"
#include "xalloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a hash table of three-word keys to indices ---- */

struct tmap {
	uint64_t *keys;     /* three per slot */
	size_t *vals;       /* PROFILE_NONE in an empty slot */
	size_t cap, n;      /* cap is 0 or a power of two */
};

static size_t tmap_hash(uint64_t a, uint64_t b, uint64_t c)
{
	/* splitmix64's finaliser over the three words */
	uint64_t h = a * 0x9e3779b97f4a7c15u ^ (b + 0x632be59bd9b4e019u) * 0xbf58476d1ce4e5b9u ^
		     (c + 0x85ebca77c2b2ae63u) * 0x94d049bb133111ebu;
	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9u;
	return (size_t)(h ^ (h >> 29));
}

static size_t tmap_get(const struct tmap *m, uint64_t a, uint64_t b, uint64_t c)
{
	if (m->cap == 0)
		return PROFILE_NONE;
	for (size_t i = tmap_hash(a, b, c) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		if (m->vals[i] == PROFILE_NONE)
			return PROFILE_NONE;
		const uint64_t *k = m->keys + 3 * i;
		if (k[0] == a && k[1] == b && k[2] == c)
			return m->vals[i];
	}
}

static void tmap_put(struct tmap *m, uint64_t a, uint64_t b, uint64_t c, size_t v);

static void tmap_grow(struct tmap *m)
{
	struct tmap old = *m;
	m->cap = old.cap ? 2 * old.cap : 64;
	m->n = 0;
	m->keys = xreallocarray(NULL, m->cap, 3 * sizeof *m->keys);
	m->vals = xreallocarray(NULL, m->cap, sizeof *m->vals);
	for (size_t i = 0; i < m->cap; i++)
		m->vals[i] = PROFILE_NONE;
	for (size_t i = 0; i < old.cap; i++)
		if (old.vals[i] != PROFILE_NONE)
			tmap_put(m, old.keys[3 * i], old.keys[3 * i + 1],
				 old.keys[3 * i + 2], old.vals[i]);
	free(old.keys);
	free(old.vals);
}

/* Set the key's value (a new key or a new value for it). */
static void tmap_put(struct tmap *m, uint64_t a, uint64_t b, uint64_t c, size_t v)
{
	if (2 * (m->n + 1) > m->cap)
		tmap_grow(m);
	size_t i = tmap_hash(a, b, c) & (m->cap - 1);
	for (; m->vals[i] != PROFILE_NONE; i = (i + 1) & (m->cap - 1)) {
		uint64_t *k = m->keys + 3 * i;
		if (k[0] == a && k[1] == b && k[2] == c) {
			m->vals[i] = v;
			return;
		}
	}
	m->keys[3 * i] = a;
	m->keys[3 * i + 1] = b;
	m->keys[3 * i + 2] = c;
	m->vals[i] = v;
	m->n++;
}

static void tmap_free(struct tmap *m)
{
	free(m->keys);
	free(m->vals);
}

/* ---- the profile's strings and lookups ---- */

struct profile_pool {
	char **str;         /* every name, file and object, once */
	size_t nstr, capstr;
	struct tmap strs;   /* (hash, length, k) -> string: k tells apart
			     * strings whose hash and length are the same */
	struct tmap funcs;  /* (name, file, object) strings -> function */
	struct tmap calls;  /* (caller, callee, 0) -> call */
	size_t capf, capc;  /* of the profile's funcs and calls */
	struct profile **parts;  /* the files merged, each a profile */
	size_t **map;       /* map[i][f]: parts[i]'s function f in funcs */
	size_t nparts, capparts;
};

static size_t intern(struct profile_pool *pl, const char *s, size_t len)
{
	uint64_t h = 1469598103934665603u;   /* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211u;
	for (uint64_t k = 0;; k++) {
		size_t i = tmap_get(&pl->strs, h, len, k);
		if (i == PROFILE_NONE) {
			xgrow((void **)&pl->str, &pl->capstr, pl->nstr + 1, sizeof *pl->str);
			pl->str[pl->nstr] = xstrndup(s, len);
			tmap_put(&pl->strs, h, len, k, pl->nstr);
			return pl->nstr++;
		}
		if (memcmp(pl->str[i], s, len) == 0)
			return i;
	}
}

static size_t intern_str(struct profile_pool *pl, const char *s)
{
	return intern(pl, s, strlen(s));
}

struct profile *profile_new(void)
{
	struct profile *p = xcalloc(1, sizeof *p);
	p->pool = xcalloc(1, sizeof *p->pool);
	for (int e = 0; e < VG_EVENTS; e++)
		p->has[e] = true;
	return p;
}

void profile_free(struct profile *p)
{
	if (p == NULL)
		return;
	struct profile_pool *pl = p->pool;
	for (size_t i = 0; i < pl->nstr; i++)
		free(pl->str[i]);
	free(pl->str);
	tmap_free(&pl->strs);
	tmap_free(&pl->funcs);
	tmap_free(&pl->calls);
	for (size_t i = 0; i < pl->nparts; i++) {
		profile_free(pl->parts[i]);
		free(pl->map[i]);
	}
	free(pl->parts);
	free(pl->map);
	free(pl);
	free(p->funcs);
	free(p->calls);
	free(p);
}

/* The function of these strings (pool indices), added with no cost if new. */
static size_t func_of(struct profile *p, size_t name, size_t file, size_t obj)
{
	struct profile_pool *pl = p->pool;
	size_t f = tmap_get(&pl->funcs, name, file, obj);
	if (f != PROFILE_NONE)
		return f;
	xgrow((void **)&p->funcs, &pl->capf, p->n_funcs + 1, sizeof *p->funcs);
	f = p->n_funcs++;
	struct profile_func *fn = &p->funcs[f];
	memset(fn, 0, sizeof *fn);
	fn->name = pl->str[name];
	fn->file = pl->str[file];
	fn->object = pl->str[obj];
	tmap_put(&pl->funcs, name, file, obj, f);
	return f;
}

static size_t call_of(struct profile *p, size_t caller, size_t callee)
{
	struct profile_pool *pl = p->pool;
	size_t c = tmap_get(&pl->calls, caller, callee, 0);
	if (c != PROFILE_NONE)
		return c;
	xgrow((void **)&p->calls, &pl->capc, p->n_calls + 1, sizeof *p->calls);
	c = p->n_calls++;
	memset(&p->calls[c], 0, sizeof p->calls[c]);
	p->calls[c].caller = caller;
	p->calls[c].callee = callee;
	tmap_put(&pl->calls, caller, callee, 0, c);
	return c;
}

void profile_out_calls(const struct profile *p, size_t **off, size_t **idx)
{
	size_t *o = xcalloc(p->n_funcs + 1, sizeof *o);
	for (size_t c = 0; c < p->n_calls; c++)
		if (p->calls[c].caller != p->calls[c].callee)
			o[p->calls[c].caller + 1]++;
	for (size_t f = 0; f < p->n_funcs; f++)
		o[f + 1] += o[f];
	size_t *x = xreallocarray(NULL, o[p->n_funcs], sizeof *x);
	size_t *fill = xreallocarray(NULL, p->n_funcs + 1, sizeof *fill);
	memcpy(fill, o, (p->n_funcs + 1) * sizeof *fill);
	for (size_t c = 0; c < p->n_calls; c++)
		if (p->calls[c].caller != p->calls[c].callee)
			x[fill[p->calls[c].caller]++] = c;
	free(fill);
	*off = o;
	*idx = x;
}

/* ---- inclusive costs ---- */

/*
 * The strongly connected components of the call graph (Tarjan, "Depth-
 * first search and linear graph algorithms", SIAM J. Comput. 1972),
 * with an explicit stack: a call chain thousands deep is not recursion
 * here.  comp[f] is f's component; returns how many there are.
 */
static size_t components(const struct profile *p, const size_t *off,
			 const size_t *idx, size_t *comp)
{
	size_t n = p->n_funcs, next = 0, ncomp = 0, sp = 0, cp = 0;
	size_t *index = xreallocarray(NULL, n, sizeof *index);
	size_t *low = xreallocarray(NULL, n, sizeof *low);
	size_t *stack = xreallocarray(NULL, n, sizeof *stack);
	size_t *cs = xreallocarray(NULL, n, sizeof *cs);   /* the DFS path */
	size_t *pos = xreallocarray(NULL, n, sizeof *pos); /* its next call */
	for (size_t f = 0; f < n; f++)
		index[f] = comp[f] = PROFILE_NONE;
	for (size_t root = 0; root < n; root++) {
		if (index[root] != PROFILE_NONE)
			continue;
		cs[cp++] = root;
		index[root] = low[root] = next++;
		pos[root] = off[root];
		stack[sp++] = root;
		while (cp > 0) {
			size_t v = cs[cp - 1];
			if (pos[v] < off[v + 1]) {
				size_t w = p->calls[idx[pos[v]++]].callee;
				if (index[w] == PROFILE_NONE) {
					index[w] = low[w] = next++;
					pos[w] = off[w];
					stack[sp++] = w;
					cs[cp++] = w;
				} else if (comp[w] == PROFILE_NONE && index[w] < low[v]) {
					low[v] = index[w];   /* w is on the stack */
				}
				continue;
			}
			if (low[v] == index[v]) {
				size_t w;
				do {
					w = stack[--sp];
					comp[w] = ncomp;
				} while (w != v);
				ncomp++;
			}
			if (--cp > 0 && low[v] < low[cs[cp - 1]])
				low[cs[cp - 1]] = low[v];
		}
	}
	free(index);
	free(low);
	free(stack);
	free(cs);
	free(pos);
	return ncomp;
}

/* incl = self + the calls to other functions, a cycle's members capped
 * at the cycle's cost (profile.h); total = the sum of self. */
static void compute_incl(struct profile *p)
{
	size_t *off, *idx, n = p->n_funcs;
	profile_out_calls(p, &off, &idx);
	size_t *comp = xreallocarray(NULL, n ? n : 1, sizeof *comp);
	size_t ncomp = components(p, off, idx, comp);
	size_t *size = xcalloc(ncomp ? ncomp : 1, sizeof *size);
	double (*cyc)[VG_EVENTS] = xcalloc(ncomp ? ncomp : 1, sizeof *cyc);
	for (int e = 0; e < VG_EVENTS; e++)
		p->total[e] = 0;
	for (size_t f = 0; f < n; f++) {
		size[comp[f]]++;
		for (int e = 0; e < VG_EVENTS; e++) {
			p->funcs[f].incl[e] = p->funcs[f].self[e];
			cyc[comp[f]][e] += p->funcs[f].self[e];
			p->total[e] += p->funcs[f].self[e];
		}
	}
	for (size_t k = 0; k < off[n]; k++) {
		const struct profile_call *c = &p->calls[idx[k]];
		bool leaves = comp[c->caller] != comp[c->callee];
		for (int e = 0; e < VG_EVENTS; e++) {
			p->funcs[c->caller].incl[e] += c->incl[e];
			if (leaves)
				cyc[comp[c->caller]][e] += c->incl[e];
		}
	}
	for (size_t f = 0; f < n; f++)
		for (int e = 0; e < VG_EVENTS && size[comp[f]] > 1; e++)
			if (cyc[comp[f]][e] < p->funcs[f].incl[e])
				p->funcs[f].incl[e] = cyc[comp[f]][e];
	free(off);
	free(idx);
	free(comp);
	free(size);
	free(cyc);
}

/* NaN for every event some file lacked, then incl and total. */
static void settle(struct profile *p)
{
	for (int e = 0; e < VG_EVENTS; e++) {
		if (p->has[e])
			continue;
		for (size_t f = 0; f < p->n_funcs; f++)
			p->funcs[f].self[e] = NAN;
		for (size_t c = 0; c < p->n_calls; c++)
			p->calls[c].incl[e] = NAN;
	}
	compute_incl(p);
}

/* ---- merging ---- */

/* Add the functions and calls of one file's profile to dst, and keep it
 * as dst's next part. */
static void merge_part(struct profile *dst, struct profile *part)
{
	struct profile_pool *pl = dst->pool;
	size_t *map = xreallocarray(NULL, part->n_funcs ? part->n_funcs : 1, sizeof *map);
	for (size_t f = 0; f < part->n_funcs; f++) {
		const struct profile_func *s = &part->funcs[f];
		map[f] = func_of(dst, intern_str(pl, s->name), intern_str(pl, s->file),
				 intern_str(pl, s->object));
		for (int e = 0; e < VG_EVENTS; e++)
			dst->funcs[map[f]].self[e] += s->self[e];
	}
	for (size_t c = 0; c < part->n_calls; c++) {
		const struct profile_call *s = &part->calls[c];
		size_t k = call_of(dst, map[s->caller], map[s->callee]);
		struct profile_call *d = &dst->calls[k];
		d->calls += s->calls;
		for (int e = 0; e < VG_EVENTS; e++)
			d->incl[e] += s->incl[e];
	}
	for (int e = 0; e < VG_EVENTS; e++)
		dst->has[e] = dst->has[e] && part->has[e];
	xgrow((void **)&pl->parts, &pl->capparts, pl->nparts + 1, sizeof *pl->parts);
	pl->map = xreallocarray(pl->map, pl->capparts, sizeof *pl->map);
	pl->parts[pl->nparts] = part;
	pl->map[pl->nparts++] = map;
	dst->files = pl->nparts;
}

/* Merge n files' profiles into dst, which keeps them; then its incl and
 * total, once for all of them. */
static void merge(struct profile *dst, struct profile **parts, size_t n)
{
	for (size_t i = 0; i < n; i++)
		merge_part(dst, parts[i]);
	settle(dst);
}

const struct profile *profile_part(const struct profile *p, size_t i,
				   const size_t **map)
{
	if (map != NULL)
		*map = p->pool->map[i];
	return p->pool->parts[i];
}

/* ---- the reader ---- */

enum { MAX_COLS = 64, MAX_POS = 3 };
enum name_kind { KIND_OB, KIND_FL, KIND_FN };

struct reader {
	struct profile *p;       /* this file's functions */
	const char *name;        /* the file, in messages */
	size_t lineno;
	char *err;
	size_t errlen;
	int col[MAX_COLS];       /* the event of each cost column, or -1 */
	size_t ncol;             /* 0 until events: */
	size_t npos;             /* subpositions a cost line starts with */
	uint64_t last[MAX_POS];  /* the previous cost line's */
	bool callgrind;          /* creator: callgrind (it writes totals:) */
	size_t unknown;          /* the string "???" */
	size_t ob, file;         /* strings, PROFILE_NONE until set */
	size_t func;             /* the current function, PROFILE_NONE before fn= */
	size_t cob, cfile, cfn;  /* the next call's callee, PROFILE_NONE unset */
	bool call_pending;       /* a calls= line waits for its cost line */
	double call_count;
	struct tmap ids;         /* (kind, id, 0) -> string */
	bool have_totals;
	double totals[VG_EVENTS];
};

static int fail(struct reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct reader *r, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(r->err, r->errlen, "%s:%zu: %s", r->name, r->lineno, msg);
	return -1;
}

static const char *blanks(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	return s;
}

static bool is_word(const char *s, const char *end, const char *w)
{
	size_t n = strlen(w);
	return (size_t)(end - s) == n && memcmp(s, w, n) == 0;
}

/* The string a position name means: "(id) name" defines id, "(id)" uses
 * it, "name" is itself ("???" when empty).  PROFILE_NONE on error. */
static size_t name_of(struct reader *r, enum name_kind kind, const char *s,
		      const char *end)
{
	struct profile_pool *pl = r->p->pool;
	s = blanks(s, end);
	if (end - s < 2 || s[0] != '(' || s[1] < '0' || s[1] > '9')
		return s == end ? r->unknown : intern(pl, s, (size_t)(end - s));
	uint64_t id;
	const char *q = s + 1;
	if (!vgout_number(&q, end, &id) || q == end || *q != ')') {
		fail(r, "a compressed name that is not \"(number) name\"");
		return PROFILE_NONE;
	}
	q = blanks(q + 1, end);
	if (q < end) {
		size_t str = intern(pl, q, (size_t)(end - q));
		tmap_put(&r->ids, kind, id, 0, str);
		return str;
	}
	size_t str = tmap_get(&r->ids, kind, id, 0);
	if (str == PROFILE_NONE)
		fail(r, "name (%llu) used before it is defined", (unsigned long long)id);
	return str;
}

/* A cost line: subpositions, then the costs into v (0 for the missing). */
static int cost_line(struct reader *r, const char *s, const char *end,
		     double v[VG_EVENTS])
{
	if (r->ncol == 0)
		return fail(r, "a cost line before the events: line");
	for (size_t i = 0; i < r->npos; i++) {
		s = blanks(s, end);
		uint64_t x = 0;
		char sign = s < end && (*s == '+' || *s == '-' || *s == '*') ? *s++ : 0;
		if (sign != '*' && !vgout_number(&s, end, &x))
			return fail(r, "a cost line without its %zu position%s", r->npos,
				    r->npos > 1 ? "s" : "");
		r->last[i] = sign == '+' ? r->last[i] + x : sign == '-' ? r->last[i] - x :
			     sign == '*' ? r->last[i] : x;
		if (s < end && *s != ' ' && *s != '\t')
			return fail(r, "a position that is not a number");
	}
	for (int e = 0; e < VG_EVENTS; e++)
		v[e] = 0;
	for (size_t c = 0;; c++) {
		s = blanks(s, end);
		if (s == end)
			return 0;
		uint64_t x;
		if (c == r->ncol)
			return fail(r, "more costs than the %zu events", r->ncol);
		if (!vgout_number(&s, end, &x) || (s < end && *s != ' ' && *s != '\t'))
			return fail(r, "a cost that is not a number");
		if (r->col[c] >= 0)
			v[r->col[c]] += (double)x;
	}
}

/* A cost line's costs go to the pending call's edge or to self. */
static int costs(struct reader *r, const char *s, const char *end)
{
	double v[VG_EVENTS];
	if (r->func == PROFILE_NONE)
		return fail(r, "a cost line before any fn= line");
	if (cost_line(r, s, end, v) < 0)
		return -1;
	struct profile *p = r->p;
	if (!r->call_pending) {
		for (int e = 0; e < VG_EVENTS; e++)
			p->funcs[r->func].self[e] += v[e];
		return 0;
	}
	size_t none = r->unknown;
	size_t callee = func_of(p, r->cfn,
				r->cfile != PROFILE_NONE ? r->cfile :
				r->file != PROFILE_NONE ? r->file : none,
				r->cob != PROFILE_NONE ? r->cob :
				r->ob != PROFILE_NONE ? r->ob : none);
	size_t k = call_of(p, r->func, callee);   /* before p->calls moves */
	struct profile_call *c = &p->calls[k];
	c->calls += r->call_count;
	for (int e = 0; e < VG_EVENTS; e++)
		c->incl[e] += v[e];
	r->call_pending = false;
	r->cob = r->cfile = r->cfn = PROFILE_NONE;
	return 0;
}

/* calls=COUNT TARGET: the target position is read past. */
static int calls_line(struct reader *r, const char *s, const char *end)
{
	uint64_t n;
	if (r->cfn == PROFILE_NONE)
		return fail(r, "a calls= line without a cfn= line before it");
	s = blanks(s, end);
	if (!vgout_number(&s, end, &n))
		return fail(r, "a calls= line without its count");
	r->call_pending = true;
	r->call_count = (double)n;
	return 0;
}

/* key=value lines (position specifications, calls=, jumps). */
static int spec(struct reader *r, const char *key, const char *kend,
		const char *s, const char *end)
{
	enum what { OB, COB, FILE_, CFILE, FN, CFN, ID_ONLY };
	static const struct {
		const char *key;
		enum name_kind kind;
		enum what what;
	} specs[] = {
		{"ob", KIND_OB, OB}, {"cob", KIND_OB, COB}, {"fl", KIND_FL, FILE_},
		{"fi", KIND_FL, FILE_}, {"fe", KIND_FL, FILE_}, {"cfi", KIND_FL, CFILE},
		{"cfl", KIND_FL, CFILE}, {"fn", KIND_FN, FN}, {"cfn", KIND_FN, CFN},
		/* jumps (--collect-jumps): only their names are kept */
		{"jfi", KIND_FL, ID_ONLY}, {"jfn", KIND_FN, ID_ONLY},
	};
	if (is_word(key, kend, "calls"))
		return calls_line(r, s, end);
	if (is_word(key, kend, "jump") || is_word(key, kend, "jcnd"))
		return 0;
	for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
		if (!is_word(key, kend, specs[i].key))
			continue;
		size_t str = name_of(r, specs[i].kind, s, end);
		if (str == PROFILE_NONE)
			return -1;
		size_t none = r->unknown;
		switch (specs[i].what) {
		case OB: r->ob = str; break;
		case COB: r->cob = str; break;
		case FILE_: r->file = str; break;
		case CFILE: r->cfile = str; break;
		case CFN: r->cfn = str; break;
		case FN:
			r->func = func_of(r->p, str, r->file != PROFILE_NONE ? r->file : none,
					  r->ob != PROFILE_NONE ? r->ob : none);
			break;
		case ID_ONLY: break;
		}
		return 0;
	}
	return fail(r, "unknown specification \"%.*s=\"", (int)(kend - key), key);
}

static int events_line(struct reader *r, const char *s, const char *end)
{
	bool seen[VG_EVENTS] = {false};
	r->ncol = 0;
	for (s = blanks(s, end); s < end; s = blanks(s, end)) {
		const char *w = s;
		while (s < end && *s != ' ' && *s != '\t')
			s++;
		if (r->ncol == MAX_COLS)
			return fail(r, "more than %d events", MAX_COLS);
		int e = vgout_event_find(w, (size_t)(s - w));
		if (e >= 0 && seen[e])
			return fail(r, "event %s named twice", vgout_event_name(e));
		if (e >= 0)
			seen[e] = true;
		r->col[r->ncol++] = e;
	}
	if (r->ncol == 0)
		return fail(r, "an events: line that names no event");
	for (int e = 0; e < VG_EVENTS; e++)
		r->p->has[e] = seen[e];
	return 0;
}

static int positions_line(struct reader *r, const char *s, const char *end)
{
	r->npos = 0;
	for (s = blanks(s, end); s < end; s = blanks(s, end)) {
		const char *w = s;
		while (s < end && *s != ' ' && *s != '\t')
			s++;
		if (!is_word(w, s, "instr") && !is_word(w, s, "line") && !is_word(w, s, "bb"))
			return fail(r, "unknown position \"%.*s\"", (int)(s - w), w);
		if (r->npos == MAX_POS)
			return fail(r, "more than %d positions", MAX_POS);
		r->last[r->npos++] = 0;
	}
	if (r->npos == 0)
		return fail(r, "a positions: line that names none");
	return 0;
}

static int totals_line(struct reader *r, const char *s, const char *end)
{
	double v[VG_EVENTS];
	size_t npos = r->npos;
	r->npos = 0;         /* the same as a cost line without positions */
	int rc = cost_line(r, s, end, v);
	r->npos = npos;
	if (rc < 0)
		return -1;
	for (int e = 0; e < VG_EVENTS; e++)
		r->totals[e] += v[e];
	r->have_totals = true;
	return 0;
}

/* key: value lines.  Unknown keys (cmd:, pid:, desc:, event:, ...) are
 * read past. */
static int header(struct reader *r, const char *key, const char *kend,
		  const char *s, const char *end)
{
	if (is_word(key, kend, "events"))
		return events_line(r, s, end);
	if (is_word(key, kend, "positions"))
		return positions_line(r, s, end);
	if (is_word(key, kend, "totals"))
		return totals_line(r, s, end);
	if (is_word(key, kend, "creator")) {
		s = blanks(s, end);
		r->callgrind = end - s >= 9 && memcmp(s, "callgrind", 9) == 0;
	} else if (is_word(key, kend, "version")) {
		uint64_t v;
		const char *q = s = blanks(s, end);
		if (!vgout_number(&q, end, &v) || v > 1)
			return fail(r, "format version %.*s: only version 1 is read",
				    (int)(end - s), s);
	}
	return 0;
}

static int line(struct reader *r, const char *s, const char *end)
{
	if (s == end || *s == '#')
		return 0;
	if (r->call_pending && !(*s >= '0' && *s <= '9') && *s != '+' && *s != '-' &&
	    *s != '*')
		return fail(r, "a calls= line not followed by its cost line");
	if ((*s >= '0' && *s <= '9') || *s == '+' || *s == '-' || *s == '*')
		return costs(r, s, end);
	const char *k = s;
	while (s < end && ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
		s++;
	if (s > k && s < end && *s == '=')
		return spec(r, k, s, s + 1, end);
	if (s > k && s < end && *s == ':')
		return header(r, k, s, s + 1, end);
	return fail(r, "not a line of the callgrind format");
}

/* After the last line: complete, and its costs add up to its totals. */
static int finish(struct reader *r)
{
	if (r->call_pending)
		return fail(r, "the file ends after a calls= line: it is cut short");
	if (r->ncol == 0)
		return fail(r, "no events: line: not a callgrind output file");
	if (!r->have_totals && r->callgrind)
		return fail(r, "no totals: line at the end: the file is cut short (the "
			    "process killed while callgrind wrote it?)");
	struct profile *p = r->p;
	for (int e = 0; e < VG_EVENTS && r->have_totals; e++) {
		double sum = 0;
		for (size_t f = 0; f < p->n_funcs; f++)
			sum += p->funcs[f].self[e];
		if (p->has[e] && sum != r->totals[e])
			return fail(r, "the cost lines add up to %.0f %s, the totals: "
				    "line says %.0f", sum, vgout_event_name(e), r->totals[e]);
	}
	p->files = 1;   /* a part of its own: its pool holds no parts */
	settle(p);
	return 0;
}

/* One file's text into a new profile; NULL with a message on error. */
static struct profile *read_text(const char *text, size_t len, const char *name,
				 char *err, size_t errlen)
{
	struct reader r = {
		.p = profile_new(), .name = name, .err = err, .errlen = errlen,
		.npos = 1, .ob = PROFILE_NONE, .file = PROFILE_NONE,
		.func = PROFILE_NONE, .cob = PROFILE_NONE, .cfile = PROFILE_NONE,
		.cfn = PROFILE_NONE,
	};
	r.unknown = intern_str(r.p->pool, "???");
	int rc = 0;
	const char *s = text, *end = text + len;
	if (len == 0) {
		snprintf(err, errlen, "%s: empty: not a callgrind output file", name);
		rc = -1;
	}
	while (rc == 0 && s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *eol = nl ? nl : end;
		r.lineno++;
		rc = line(&r, s, eol > s && eol[-1] == '\r' ? eol - 1 : eol);
		s = nl ? nl + 1 : end;
	}
	if (rc == 0)
		rc = finish(&r);
	tmap_free(&r.ids);
	if (rc < 0) {
		profile_free(r.p);
		return NULL;
	}
	return r.p;
}

int profile_add_text(struct profile *p, const char *text, size_t len,
		     const char *name, char *err, size_t errlen)
{
	struct profile *one = read_text(text, len, name, err, errlen);
	if (one == NULL)
		return -1;
	merge(p, &one, 1);
	return 0;
}

/* One file's profile, read whole. */
static struct profile *read_file(const char *path, char *err, size_t errlen)
{
	size_t len;
	char *text = vgout_read_file(path, &len, err, errlen);
	if (text == NULL)
		return NULL;
	struct profile *one = read_text(text, len, path, err, errlen);
	free(text);
	return one;
}

int profile_add_file(struct profile *p, const char *path, char *err,
		     size_t errlen)
{
	struct profile *one = read_file(path, err, errlen);
	if (one == NULL)
		return -1;
	merge(p, &one, 1);
	return 0;
}

struct part_list {
	struct profile **v;
	size_t n, cap;
};

static int read_part(void *arg, const char *path, char *err, size_t errlen)
{
	struct part_list *l = arg;
	struct profile *one = read_file(path, err, errlen);
	if (one == NULL)
		return -1;
	xgrow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v);
	l->v[l->n++] = one;
	return 0;
}

/* Every file is read before any is merged, so that one bad file leaves p
 * as it was, and p's inclusive costs are computed once. */
int profile_add_dir(struct profile *p, const char *dir, const char *prefix,
		    size_t *files, char *err, size_t errlen)
{
	struct part_list parts = {0};
	int rc = vgout_each_file(dir, prefix, read_part, &parts, files, err, errlen);
	if (rc == 0)
		merge(p, parts.v, parts.n);
	for (size_t i = 0; i < parts.n && rc < 0; i++)
		profile_free(parts.v[i]);
	free(parts.v);
	return rc;
}
