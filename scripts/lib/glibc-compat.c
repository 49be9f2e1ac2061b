/* Six functions the static Swift runtime of Debian sid (built against glibc 2.42) calls and
 * bookworm's glibc 2.36 lacks. Linked into the arm64 program only (scripts/build-arm64), so
 * the binary runs on bookworm: strlcpy/strlcat as BSD defines them, and the C23 variants of
 * strtol & co, which differ from the classic ones only in also accepting a "0b" prefix
 * (binary) with base 0 or 2 -- handled here the same way. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t strlcpy(char *dst, const char *src, size_t size) {
    size_t length = strlen(src);
    if (size > 0) {
        size_t n = length < size - 1 ? length : size - 1;
        memcpy(dst, src, n);
        dst[n] = '\0';
    }
    return length;
}

size_t strlcat(char *dst, const char *src, size_t size) {
    size_t used = strnlen(dst, size);
    if (used == size) return size + strlen(src);
    return used + strlcpy(dst + used, src, size - used);
}

/* "0b101" with base 0 or 2: skip the prefix and read base 2. */
static const char *binary_digits(const char *s, int *base) {
    const char *p = s;
    while (*p == ' ' || (*p >= '\t' && *p <= '\r')) p++;
    if (*p == '+' || *p == '-') p++;
    if ((*base == 0 || *base == 2) && p[0] == '0' && (p[1] == 'b' || p[1] == 'B') && (p[2] == '0' || p[2] == '1')) {
        *base = 2;
        return p + 2;
    }
    return NULL;
}

#define C23_STRTO(name, type, classic)                                              \
    type name(const char *s, char **end, int base) {                                \
        const char *digits = binary_digits(s, &base);                               \
        if (!digits) return classic(s, end, base);                                  \
        type value = classic(digits, end, 2);                                       \
        const char *p = s;                                                          \
        while (*p == ' ' || (*p >= '\t' && *p <= '\r')) p++;                        \
        return *p == '-' ? (type)(0 - value) : value;                               \
    }

C23_STRTO(__isoc23_strtol, long, strtol)
C23_STRTO(__isoc23_strtoll, long long, strtoll)
C23_STRTO(__isoc23_strtoul, unsigned long, strtoul)

int __isoc23_sscanf(const char *s, const char *format, ...) {
    va_list args;
    va_start(args, format);
    int n = vsscanf(s, format, args);
    va_end(args);
    return n;
}
