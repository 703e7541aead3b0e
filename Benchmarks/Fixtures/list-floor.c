/*
 * The floor `Benchmarks process` sets a first `contacts list` / `search` of a large vCard file beside: a minimal,
 * single-threaded C program that does the least a sorted listing needs. It memory-maps the file, takes each
 * card's FN and EMAIL lines (the value after the first ':'; no unfolding, no unescaping, no parameters read),
 * makes an ICU sort key of each name (UTF-8 → UTF-16 → ucol_getSortKey, keys back to back in one buffer),
 * sorts the cards by key (qsort, memcmp; ties by position), and writes "name<TAB>first email" per card.
 *
 * Built by the benchmark with the system C compiler and Debian's ICU:
 *     cc -O2 -o list-floor list-floor.c -licui18n -licuuc
 * Usage: list-floor FILE.vcf [LOCALE]   (LOCALE defaults to "en")
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <unicode/ucol.h>
#include <unicode/ustring.h>

struct card {
    const char *name;
    size_t nameLength;
    const char *email;
    size_t emailLength;
    size_t key;     /* offset of the sort key in `keys` */
    size_t keySize; /* its length */
};

static const uint8_t *keys;
static struct card *cards;

static int compare(const void *a, const void *b) {
    const struct card *x = &cards[*(const uint32_t *)a], *y = &cards[*(const uint32_t *)b];
    size_t n = x->keySize < y->keySize ? x->keySize : y->keySize;
    int c = memcmp(keys + x->key, keys + y->key, n);
    if (c != 0) return c;
    if (x->keySize != y->keySize) return x->keySize < y->keySize ? -1 : 1;
    return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

/* The value of the line [line, end) after its first ':', without a trailing CR. */
static const char *value(const char *line, const char *end, size_t *length) {
    const char *colon = memchr(line, ':', (size_t)(end - line));
    if (colon == NULL) return NULL;
    if (end > colon + 1 && end[-1] == '\r') end--;
    *length = (size_t)(end - colon - 1);
    return colon + 1;
}

static int startsWith(const char *line, const char *end, const char *name, size_t n) {
    return (size_t)(end - line) > n && strncasecmp(line, name, n) == 0 && (line[n] == ':' || line[n] == ';');
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: list-floor FILE.vcf [LOCALE]\n");
        return 2;
    }
    int fd = open(argv[1], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        perror(argv[1]);
        return 1;
    }
    size_t size = (size_t)st.st_size;
    const char *text = size ? mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0) : "";
    if (text == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    size_t capacity = 1024, count = 0;
    cards = malloc(capacity * sizeof *cards);
    struct card current = {0};
    int inCard = 0;
    for (const char *line = text, *stop = text + size; line < stop;) {
        const char *end = memchr(line, '\n', (size_t)(stop - line));
        const char *next = end ? end + 1 : stop;
        if (!end) end = stop;
        if (startsWith(line, end, "BEGIN", 5)) {
            memset(&current, 0, sizeof current);
            inCard = 1;
        } else if (inCard && startsWith(line, end, "FN", 2)) {
            current.name = value(line, end, &current.nameLength);
        } else if (inCard && current.email == NULL && startsWith(line, end, "EMAIL", 5)) {
            current.email = value(line, end, &current.emailLength);
        } else if (inCard && startsWith(line, end, "END", 3)) {
            if (count == capacity) cards = realloc(cards, (capacity *= 2) * sizeof *cards);
            cards[count++] = current;
            inCard = 0;
        }
        line = next;
    }

    UErrorCode status = U_ZERO_ERROR;
    UCollator *collator = ucol_open(argc > 2 ? argv[2] : "en", &status);
    if (U_FAILURE(status)) {
        fprintf(stderr, "ucol_open: %s\n", u_errorName(status));
        return 1;
    }
    size_t keyCapacity = count * 32 + 256, keyLength = 0;
    uint8_t *keyBuffer = malloc(keyCapacity);
    UChar u16[1024];
    for (size_t i = 0; i < count; i++) {
        int32_t n16 = 0;
        status = U_ZERO_ERROR;
        size_t length = cards[i].nameLength > 1000 ? 1000 : cards[i].nameLength;
        u_strFromUTF8WithSub(u16, 1024, &n16, cards[i].name ? cards[i].name : "", (int32_t)length, 0xFFFD, NULL,
                             &status);
        if (keyCapacity - keyLength < 4096) keyBuffer = realloc(keyBuffer, keyCapacity *= 2);
        int32_t n = ucol_getSortKey(collator, u16, n16, keyBuffer + keyLength, (int32_t)(keyCapacity - keyLength));
        cards[i].key = keyLength;
        cards[i].keySize = (size_t)n;
        keyLength += (size_t)n;
    }
    keys = keyBuffer;
    uint32_t *order = malloc((count ? count : 1) * sizeof *order);
    for (size_t i = 0; i < count; i++) order[i] = (uint32_t)i;
    qsort(order, count, sizeof *order, compare);

    static char out[1 << 16];
    setvbuf(stdout, out, _IOFBF, sizeof out);
    for (size_t i = 0; i < count; i++) {
        const struct card *c = &cards[order[i]];
        fwrite(c->name ? c->name : "", 1, c->nameLength, stdout);
        putc('\t', stdout);
        fwrite(c->email ? c->email : "", 1, c->emailLength, stdout);
        putc('\n', stdout);
    }
    ucol_close(collator);
    fprintf(stderr, "%zu cards\n", count);
    return 0;
}
