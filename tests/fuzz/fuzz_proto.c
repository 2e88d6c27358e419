/* libFuzzer harness: the host's parser of agent records and its line
 * splitter and sequence checker (host/cell/proto.c), fed guest bytes. */
#include <stddef.h>
#include <stdint.h>

#include "host/cell/proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct lab_linebuf lb;
    static struct lab_record rec;
    struct lab_seqcheck sc;
    char err[256];

    lab_linebuf_init(&lb);
    lab_seqcheck_init(&sc);
    /* The whole input as one record, then as a stream of lines. */
    if (lab_record_parse((const char *)data, size, &rec, err, sizeof err) == 0) {
        uint64_t v;
        lab_record_get(&rec, "msg");
        lab_record_get_u64(&rec, "bytes", &v);
    }
    size_t off = 0;
    while (off < size) {
        off += (size_t)lab_linebuf_feed(&lb, (const char *)data + off, size - off);
        const char *line;
        size_t len;
        int r;
        while ((r = lab_linebuf_next(&lb, &line, &len)) != 0)
            if (r > 0 && lab_record_parse(line, len, &rec, err, sizeof err) == 0)
                lab_seqcheck_accept(&sc, &rec, err, sizeof err);
    }
    return 0;
}
