/*
 * tn_exp_name.c: which names an export may take (fdtune export --name).
 * NAME names the files (NAME.cu, NAME.h, NAME.f90) and prefixes every
 * symbol they define (NAME_launch, NAME_coef, NAME_kernel, NAME_RADIUS, ...),
 * so it must be a C identifier that C, C++ and, with --fortran, Fortran
 * accept at file scope, and NAME_ must not run into the names every export
 * keeps for itself (fd_real, fd_grid, fd_coef, FD_RT, fdt_rule_pick, ...).
 * Also the escapes of text an export writes into C (tn_exp_esc), for the
 * emitters of every part of an export.
 */
#include "fdt_rc.h"
#include "tn_export.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* The beginnings of the names every export defines for itself: the ABI
 * (fdt_abi.h), the prelude's helpers and macros (prelude.m4, FD_RT, FD_PROP
 * of NAME.cu) and the size rule (fdt_rule.h). Fortran ignores case, and so
 * does the comparison. */
static const char *const own[] = { "fd_", "fdt_rule_" };

/* The own name prefix that symbols NAME_... could run into, or NULL: when
 * NAME_ begins with one, or one begins with NAME_ ("fd" makes fd_coef). */
static const char *clash(const char *name)
{
	for (size_t i = 0; i < sizeof own / sizeof own[0]; i++) {
		size_t k = 0, l = strlen(own[i]);
		while (k < l && name[k] && tolower((unsigned char)name[k]) == own[i][k])
			k++;
		if (k == l || (!name[k] && own[i][k] == '_'))
			return own[i];
	}
	return NULL;
}

/* NULL when name may be used for the files and as the prefix of C and C++
 * symbols, else why not: a keyword of C (to C23) or C++ (to C++20), or a
 * name those languages reserve (a leading underscore, as these names are
 * used at file scope, or a double underscore anywhere). */
static const char *refused(const char *name)
{
	static const char *const kw[] = { "alignas", "alignof", "and", "and_eq", "asm", "auto",
		"bitand", "bitor", "bool", "break", "case", "catch", "char", "char8_t", "char16_t",
		"char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
		"constinit", "const_cast", "continue", "co_await", "co_return", "co_yield",
		"decltype", "default", "delete", "do", "double", "dynamic_cast", "else", "enum",
		"explicit", "export", "extern", "false", "float", "for", "friend", "goto", "if",
		"inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
		"nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register",
		"reinterpret_cast", "requires", "restrict", "return", "short", "signed", "sizeof",
		"static", "static_assert", "static_cast", "struct", "switch", "template", "this",
		"thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "typeof",
		"typeof_unqual", "union", "unsigned", "using", "virtual", "void", "volatile",
		"wchar_t", "while", "xor", "xor_eq" };
	for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
		if (!strcmp(name, kw[i]))
			return "a C or C++ keyword";
	if (name[0] == '_')
		return "reserved: C and C++ reserve names that start with an underscore";
	if (strstr(name, "__"))
		return "reserved: C++ reserves names that contain a double underscore";
	return NULL;
}

int tn_exp_name(const char *name, int fortran, char *err, size_t n)
{
	if (!*name || strlen(name) > 100) {
		snprintf(err, n, "--name: 1 to 100 characters");
		return FDT_USAGE;
	}
	for (const char *c = name; *c; c++)
		if (!(*c == '_' || (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		      (c > name && *c >= '0' && *c <= '9'))) {
			snprintf(err, n, "--name '%s': not a C identifier", name);
			return FDT_USAGE;
		}
	if (refused(name)) {
		snprintf(err, n, "--name '%s': %s; choose another name (it prefixes the exported "
			 "symbols: NAME_launch, NAME_coef, NAME_kernel)", name, refused(name));
		return FDT_USAGE;
	}
	if (clash(name)) {
		snprintf(err, n, "--name '%s': the export's own names begin with %s (fd_real, fd_grid, "
			 "fd_coef, FD_TYPES, FD_RT, fdt_rule_pick, ...; in any case, as Fortran sees "
			 "them), and NAME_launch, NAME_coef, NAME_kernel, ... would run into them; "
			 "choose another name", name, clash(name));
		return FDT_USAGE;
	}
	/* Fortran names have at most 63 characters (NAME_fdtune) and start with a letter */
	if (fortran && (strlen(name) > 56 || !((*name >= 'a' && *name <= 'z') ||
						(*name >= 'A' && *name <= 'Z')))) {
		snprintf(err, n, "--fortran: --name '%.100s' must start with a letter and have at "
			 "most 56 characters (Fortran names have at most 63: NAME_fdtune)", name);
		return FDT_USAGE;
	}
	return FDT_OK;
}

/* The escape of s[i] (tn_exp_esc, lit) into e[0..8); its length. */
static size_t esc1(const char *s, size_t i, int lit, char e[8])
{
	const unsigned char c = (unsigned char)s[i], p = i ? (unsigned char)s[i - 1] : 0;
	if (c < 0x20 || c == 0x7f || (lit && c == '?' && p == '?') ||
	    (!lit && ((c == '/' && p == '*') || (c == '*' && p == '/'))))
		return (size_t)snprintf(e, 8, "\\%03o", c);
	return (size_t)snprintf(e, 8, lit && (c == '"' || c == '\\') ? "\\%c" : "%c", c);
}

const char *tn_exp_esc(const char *s, int lit, char *buf, size_t n)
{
	size_t len = 0, o = 0, k;
	char e[8];
	int cut;
	if (!n)
		return buf;
	for (size_t i = 0; s[i]; i++)
		len += esc1(s, i, lit, e);
	cut = len >= n;
	for (size_t i = 0; s[i] && o + (k = esc1(s, i, lit, e)) + (cut ? 3 : 0) < n; i++) {
		memcpy(buf + o, e, k);
		o += k;
	}
	snprintf(buf + o, n - o, "%s", cut ? "..." : "");
	return buf;
}
