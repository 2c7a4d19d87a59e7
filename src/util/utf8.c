/*
 * utf8.c: command lines and names may hold any bytes (a Latin-1 file
 * name, a binary argument); every export replaces each byte that does not
 * start a valid UTF-8 sequence with U+FFFD, the same way, so JSON, CSV and
 * the tables all read back as UTF-8 (Python's csv module, jq, a Markdown
 * renderer) and agree with each other.  Validity follows RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF.
 */
#include "utf8.h"
#include "xalloc.h"

#include <string.h>

static size_t utf8_seq(const unsigned char *s)
{
	if (s[0] < 0x80)
		return 1;
	size_t n;
	unsigned lo = 0x80, hi = 0xBF;
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		n = 2;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
		n = 3;
		if (s[0] == 0xE0)
			lo = 0xA0;
		if (s[0] == 0xED)
			hi = 0x9F;
	} else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
		n = 4;
		if (s[0] == 0xF0)
			lo = 0x90;
		if (s[0] == 0xF4)
			hi = 0x8F;
	} else
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0;
	return n;
}

bool utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		size_t k = utf8_seq(p);
		if (k == 0)
			return false;
		p += k;
	}
	return true;
}

char *utf8_clean(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), bad = 0;
	for (size_t i = 0; i < len;) {
		size_t k = utf8_seq(p + i);
		bad += k == 0;
		i += k ? k : 1;
	}
	char *clean = xmalloc(len + 2 * bad + 1), *o = clean;
	for (size_t i = 0; i < len;) {
		size_t k = utf8_seq(p + i);
		if (k == 0) {
			memcpy(o, "\xEF\xBF\xBD", 3);
			o += 3;
			i++;
		} else {
			memcpy(o, s + i, k);
			o += k;
			i += k;
		}
	}
	*o = '\0';
	return clean;
}
