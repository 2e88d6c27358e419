/* Unit tests of the era-disk timing model (host/hdd/model.c, layout.c,
 * queue.c). Every expected time is computed by hand in the comments.
 *
 * Fixture drive: 6000 rpm (T_rev = 10 ms), 2 heads, 1 zone of 100 sectors
 * per track (media rate 100 * 512 / 10 ms = 5.12 MB/s, so one sector passes
 * in 0.1 ms), 1000 cylinders (capacity 1000 * 2 * 100 * 512 bytes).
 * Head switch 1 ms -> track skew ceil(1/10 * 100) = 10 sectors; cylinder
 * switch 2 ms -> cylinder skew 20 sectors. Lee seek from t2t 1 / avg 5 /
 * full 10 ms: A = 5(5-1) - 5(10-1)/3 = 5, B = 9 - 5 = 4, so
 * seek(d) = 1 + 5 sqrt(d/999) + 4 d/999 ms. Overheads: read miss 0.5 ms,
 * read hit 0.1 ms, write 0.2 ms; interface 51.2 MB/s (4 KiB = 0.08 ms).
 * Cache 200 KiB in 2 segments of 200 sectors; read-ahead 200 sectors;
 * write settle 0.5 ms; write-back limit 100 KiB. Phase 0 at t = 0; the
 * arm starts at cylinder 0, head 0. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <string.h>

#include <cmocka.h>

#include "host/hdd/model.h"

#define MSEC 1000000LL /* ns */

static struct hdd_params fixture(void)
{
    struct hdd_params p;
    hdd_params_defaults(&p);
    p.capacity_bytes = 1000ULL * 2 * 100 * 512;
    p.rpm = 6000;
    p.heads = 2;
    p.zones = 1;
    p.media_outer_mbs = p.media_inner_mbs = 5.12;
    p.head_switch_ms = 1.0;
    p.cyl_switch_ms = 2.0;
    p.seek_type = HDD_SEEK_LEE;
    p.seek_t2t_ms = 1;
    p.seek_avg_ms = 5;
    p.seek_full_ms = 10;
    p.write_settle_ms = 0.5;
    p.overhead_read_miss_ms = 0.5;
    p.overhead_read_hit_ms = 0.1;
    p.overhead_write_ms = 0.2;
    p.interface_mbs = 51.2;
    p.cache_bytes = 200 * 1024;
    p.cache_segments = 2;
    p.write_cache = 1;
    p.write_cache_bytes = 100 * 1024;
    p.queue_depth = 1;
    p.max_wait_ms = 100;
    return p;
}

static struct hdd_model *model(const struct hdd_params *p)
{
    char err[256] = "";
    struct hdd_model *m = hdd_model_new(p, 0, err, sizeof(err));
    if (!m)
        fail_msg("hdd_model_new: %s", err);
    return m;
}

/* |got - want| <= 2 ns (double -> int64 rounding). */
#define assert_ns(got, want) check_ns((got), (want), __LINE__)
static void check_ns(int64_t got, int64_t want, int line)
{
    if (got < want - 2 || got > want + 2)
        fail_msg("line %d: got %lld ns, want %lld ns", line, (long long)got, (long long)want);
}

static void test_layout(void **state)
{
    struct hdd_params p = fixture();
    struct hdd_model *m = model(&p);
    struct hdd_geom g;
    assert_true(hdd_model_cylinders(m) == 1000);
    /* LBA 22200 = track 222 = cylinder 111, head 0, sector 0. Skew: 111
     * head switches * 10 + 111 cylinder switches * 20 = 3330 = 30 mod 100,
     * so the angle is 0.30. */
    assert_int_equal(hdd_model_geom(m, 22200, &g), 0);
    assert_true(g.cyl == 111);
    assert_int_equal(g.head, 0);
    assert_int_equal(g.sector, 0);
    assert_true(g.angle > 0.2999 && g.angle < 0.3001);
    /* LBA 150 = track 1 (cylinder 0, head 1), sector 50; one head switch:
     * angle (50 + 10) / 100 = 0.60. */
    assert_int_equal(hdd_model_geom(m, 150, &g), 0);
    assert_int_equal(g.head, 1);
    assert_int_equal(g.sector, 50);
    assert_true(g.angle > 0.5999 && g.angle < 0.6001);
    assert_int_equal(hdd_model_geom(m, 200000, &g), -1);
    /* Sustained rate: 200 sectors per cylinder in 2 revolutions plus 10 +
     * 20 skew sectors (0.3 rev): 102400 B / 23 ms = 4452173.9 B/s. */
    double r = hdd_expect_seq_rate(&p, 0);
    assert_true(r > 4452170 && r < 4452178);
    hdd_model_free(m);
}

static void test_seek_lee(void **state)
{
    struct hdd_params p = fixture();
    struct hdd_model *m = model(&p);
    assert_true(hdd_model_seek_ms(m, 0) == 0);
    /* d = 111: x = 1/9, 1 + 5/3 + 4/9 = 3.1111 ms. */
    double s = hdd_model_seek_ms(m, 111);
    assert_true(s > 3.1110 && s < 3.1112);
    /* Full stroke d = 999: 1 + 5 + 4 = 10 ms. */
    s = hdd_model_seek_ms(m, 999);
    assert_true(s > 9.9999 && s < 10.0001);
    /* Uniform random average over the full stroke reproduces avg = 5 ms
     * (discrete cylinders: within 1%). */
    s = hdd_expect_avg_seek_ms(&p, p.capacity_bytes);
    assert_true(s > 4.95 && s < 5.05);
    hdd_model_free(m);
}

static void test_seek_hpl(void **state)
{
    struct hdd_params p = fixture();
    p.seek_type = HDD_SEEK_HPL;
    double v[6] = {100, 1.0, 0.5, 5.0, 0.01, 0.8};
    memcpy(p.hpl, v, sizeof(v));
    struct hdd_model *m = model(&p);
    /* d = 1 -> V6 = 0.8; d = 16 < V1 -> 1 + 0.5 * 4 = 3; d = 200 >= V1 ->
     * 5 + 0.01 * 200 = 7. */
    assert_true(hdd_model_seek_ms(m, 1) == 0.8);
    assert_true(fabs(hdd_model_seek_ms(m, 16) - 3.0) < 1e-9);
    assert_true(fabs(hdd_model_seek_ms(m, 200) - 7.0) < 1e-9);
    hdd_model_free(m);
}

static void test_rotation_wait(void **state)
{
    struct hdd_params p = fixture();
    struct hdd_model *m = model(&p);
    struct hdd_result r;
    /* Read LBA 50 (angle 0.50) issued at t = 0: ready after the 0.5 ms
     * miss overhead at phase 0.05, no seek, waits 0.45 rev = 4.5 ms, so the
     * sector starts at 5.0 ms and ends at 5.1 ms (bus 0.01 ms overlaps). */
    assert_int_equal(hdd_model_service(m, HDD_READ, 50 * 512, 512, 0, 0, &r), 0);
    assert_int_equal(r.outcome, HDD_MISS);
    assert_ns(r.start_ns, 0);
    assert_ns(r.finish_ns, 5100000);
    hdd_model_free(m);

    /* The same read issued at 3 ms: ready at 3.5 ms (phase 0.35), waits
     * 0.15 rev = 1.5 ms: again 5.0 -> 5.1 ms. */
    m = model(&p);
    assert_int_equal(hdd_model_service(m, HDD_READ, 50 * 512, 512, 0, 3 * MSEC, &r), 0);
    assert_ns(r.finish_ns, 5100000);
    hdd_model_free(m);

    /* Seek plus rotation: LBA 22200 (cylinder 111, angle 0.30) at t = 0:
     * ready at 0.5 + 3.1111 = 3.6111 ms (phase 0.36111), waits until phase
     * 0.30 of the next revolution, 13.0 ms; one sector: 13.1 ms. */
    m = model(&p);
    assert_int_equal(hdd_model_service(m, HDD_READ, 22200 * 512, 512, 0, 0, &r), 0);
    assert_ns(r.finish_ns, 13100000);
    hdd_model_free(m);
}

/* First read of the cache tests: LBA 0..8 (4 KiB) at t = 0: ready 0.5 ms
 * (phase 0.05), angle 0 -> wait 9.5 ms, media 10.0 -> 10.8 ms. Read-ahead
 * then streams from LBA 8 at 10.8 ms, 0.1 ms per sector, up to LBA 208. */
static struct hdd_model *after_first_read(const struct hdd_params *p)
{
    struct hdd_model *m = model(p);
    struct hdd_result r;
    assert_int_equal(hdd_model_service(m, HDD_READ, 0, 4096, 0, 0, &r), 0);
    assert_int_equal(r.outcome, HDD_MISS);
    assert_ns(r.finish_ns, 10800000);
    return m;
}

static void test_prefetch_hit_after_idle(void **state)
{
    struct hdd_params p = fixture();
    struct hdd_model *m = after_first_read(&p);
    struct hdd_result r;
    /* LBA 8..16 at 20 ms: the idle 9.2 ms read ahead 92 sectors (to LBA
     * 100), so it is a hit: 20 + 0.1 (hit overhead) + 0.08 (bus) = 20.18. */
    assert_int_equal(hdd_model_service(m, HDD_READ, 8 * 512, 4096, 0, 20 * MSEC, &r), 0);
    assert_int_equal(r.outcome, HDD_HIT);
    assert_ns(r.finish_ns, 20180000);
    hdd_model_free(m);

    /* Without read-ahead (no cache) the same read is a miss at phase
     * 0.05 + 20.5 ms: LBA 8 (angle 0.08) comes at 20.8 ms, ends 21.6 ms. */
    p.cache_bytes = 0;
    m = after_first_read(&p);
    assert_int_equal(hdd_model_service(m, HDD_READ, 8 * 512, 4096, 0, 20 * MSEC, &r), 0);
    assert_int_equal(r.outcome, HDD_MISS);
    assert_ns(r.finish_ns, 21600000);
    hdd_model_free(m);
}

static void test_wait_for_running_prefetch(void **state)
{
    struct hdd_params p = fixture();
    struct hdd_model *m = after_first_read(&p);
    struct hdd_result r;
    /* LBA 60..68 at 11 ms: the stream is at LBA 10; it passes LBA 68 at
     * 10.8 + 60 * 0.1 = 16.8 ms, later than 11 + 0.18: finish 16.8 ms. */
    assert_int_equal(hdd_model_service(m, HDD_READ, 60 * 512, 4096, 0, 11 * MSEC, &r), 0);
    assert_int_equal(r.outcome, HDD_PARTIAL);
    assert_ns(r.finish_ns, 16800000);
    hdd_model_free(m);
}

static void test_stream_across_track_switch(void **state)
{
    struct hdd_params p = fixture();
    struct hdd_model *m = after_first_read(&p);
    struct hdd_result r;
    /* LBA 8..108 at 10.8 ms continues the stream: 92 sectors to the end of
     * track 0 (9.2 ms), the 10-sector track skew (1.0 ms), 8 sectors on
     * track 1 (0.8 ms): 10.8 + 11.0 = 21.8 ms. */
    assert_int_equal(hdd_model_service(m, HDD_READ, 8 * 512, 100 * 512, 0, 10800000, &r), 0);
    assert_int_equal(r.outcome, HDD_PARTIAL);
    assert_ns(r.finish_ns, 21800000);
    hdd_model_free(m);
}

static void test_prefetch_resumes_after_limit(void **state)
{
    struct hdd_params p = fixture();
    struct hdd_model *m = after_first_read(&p);
    struct hdd_result r;
    /* Idle until 40 ms: the read-ahead reached its limit LBA 208 at
     * 33.8 ms (track 0 to LBA 100 at 20.0 ms, track skew to 21.0, track 1
     * to 31.0, cylinder skew to 33.0, 8 sectors: 33.8) and stopped; the
     * segment holds LBA 8..208. LBA 8..16 at 40 ms is a hit (40.18 ms) and
     * restarts the read-ahead from LBA 208 (angle (8 + 30) / 100 = 0.38,
     * phase 0 at 40 ms: at 43.8 ms) up to 16 + 200 = 216. */
    assert_int_equal(hdd_model_service(m, HDD_READ, 8 * 512, 4096, 0, 40 * MSEC, &r), 0);
    assert_int_equal(r.outcome, HDD_HIT);
    assert_ns(r.finish_ns, 40180000);
    /* LBA 200..208 at 41 ms: a hit that extends the limit to 408. */
    assert_int_equal(hdd_model_service(m, HDD_READ, 200 * 512, 4096, 0, 41 * MSEC, &r), 0);
    assert_int_equal(r.outcome, HDD_HIT);
    assert_ns(r.finish_ns, 41180000);
    /* The stream: LBA 208 at 43.8 ms, end of track 2 (LBA 300) at
     * 53.0 ms, track 3 (angle (2 * 10 + 20) / 100 = 0.40) at 54.0 ms, LBA
     * 308 at 54.8 ms. So LBA 300..308 at 60 ms is a hit: 60.18 ms (before
     * the resume it was a miss ending at 64.8 ms). */
    assert_int_equal(hdd_model_service(m, HDD_READ, 300 * 512, 4096, 0, 60 * MSEC, &r), 0);
    assert_int_equal(r.outcome, HDD_HIT);
    assert_ns(r.finish_ns, 60180000);
    hdd_model_free(m);
}

/* The run-9 devread case: the pata-2003 drive, sequential 4 KiB O_DIRECT
 * reads one at a time, each arriving 0.33 ms after the previous finished.
 * The host needs 4 KiB per 0.42 ms (9.7 MB/s), far below the media rate
 * (> 30 MB/s), so once the read-ahead is ahead every read must cost
 * hit overhead 0.05 ms + bus 4096 B / 100 MB/s = 0.04096 ms = 90.96 us,
 * also past the end of the first read-ahead segment (256 KiB). */
static void test_sequential_direct_reads_stay_hits(void **state)
{
    struct hdd_params p;
    hdd_params_defaults(&p);
    p.capacity_bytes = 80026361856ULL;
    p.rpm = 7200;
    p.heads = 2;
    p.zones = 24;
    p.media_outer_mbs = 69;
    p.media_inner_mbs = 38;
    p.head_switch_ms = 1.4;
    p.cyl_switch_ms = 1.8;
    p.seek_type = HDD_SEEK_LEE;
    p.seek_t2t_ms = 0.8;
    p.seek_avg_ms = 8.5;
    p.seek_full_ms = 16;
    p.write_settle_ms = 0.5;
    p.overhead_read_miss_ms = 0.4;
    p.overhead_read_hit_ms = 0.05;
    p.overhead_write_ms = 0.15;
    p.interface_mbs = 100;
    p.cache_bytes = 2048 * 1024;
    p.cache_segments = 8;
    p.write_cache = 1;
    p.write_cache_bytes = 1024 * 1024;
    p.queue_depth = 1;
    struct hdd_model *m = model(&p);
    struct hdd_result r;
    int64_t t = 12345678; /* an arbitrary rotational phase */
    assert_int_equal(hdd_model_service(m, HDD_READ, 0, 4096, 0, t, &r), 0);
    assert_int_equal(r.outcome, HDD_MISS);
    int hits = 0;
    /* 16 MiB, 64 times the segment size. */
    for (uint64_t off = 4096; off < 16 * 1024 * 1024; off += 4096) {
        t = r.finish_ns + 330000;
        assert_int_equal(hdd_model_service(m, HDD_READ, off, 4096, 0, t, &r), 0);
        if (off < 64 * 1024)
            continue; /* the first read-ahead may still be catching up */
        if (r.outcome != HDD_HIT || r.start_ns != t || r.finish_ns - r.start_ns < 90960 - 1000 ||
            r.finish_ns - r.start_ns > 90960 + 1000)
            fail_msg("offset %llu: outcome %d, start +%lld ns, took %lld ns, want hit in 90960",
                     (unsigned long long)off, r.outcome, (long long)(r.start_ns - t),
                     (long long)(r.finish_ns - r.start_ns));
        hits++;
    }
    assert_int_equal(hits, 4096 - 16);
    hdd_model_free(m);
}

static void test_write_back_then_flush(void **state)
{
    struct hdd_params p = fixture();
    struct hdd_model *m = model(&p);
    struct hdd_result r;
    /* 4 KiB write at LBA 1000 (cylinder 5, head 0, sector 0; skew 5 * 10 +
     * 5 * 20 = 150 -> angle 0.50) at t = 0: absorbed, finishes after the
     * write overhead and the bus: 0.2 + 0.08 = 0.28 ms. */
    assert_int_equal(hdd_model_service(m, HDD_WRITE, 1000 * 512, 4096, 0, 0, &r), 0);
    assert_int_equal(r.outcome, HDD_HIT);
    assert_ns(r.finish_ns, 280000);
    assert_true(hdd_model_dirty_bytes(m) == 4096);
    /* FLUSH at 0.28 ms: overhead 0.2 -> 0.48; seek 5 cylinders 1 + 5
     * sqrt(5/999) + 4 * 5/999 = 1.3738 ms plus settle 0.5: ready 2.354 ms;
     * angle 0.50 comes at 5.0 ms; 8 sectors: 5.8 ms. */
    assert_int_equal(hdd_model_service(m, HDD_FLUSH, 0, 0, 0, 280000, &r), 0);
    assert_int_equal(r.outcome, HDD_MISS);
    assert_ns(r.finish_ns, 5800000);
    assert_true(hdd_model_dirty_bytes(m) == 0);
    /* A second FLUSH has nothing to destage: 5.8 + 0.2 ms. */
    assert_int_equal(hdd_model_service(m, HDD_FLUSH, 0, 0, 0, 5800000, &r), 0);
    assert_int_equal(r.outcome, HDD_HIT);
    assert_ns(r.finish_ns, 6000000);
    hdd_model_free(m);
}

static void test_idle_destage(void **state)
{
    struct hdd_params p = fixture();
    struct hdd_model *m = model(&p);
    struct hdd_result r;
    /* The same write; the drive destages it while idle (from 0.28 ms: seek
     * + settle ready at 2.154 ms, media 5.0 -> 5.8 ms). A FLUSH at 50 ms then
     * only costs its overhead: 50.2 ms. */
    assert_int_equal(hdd_model_service(m, HDD_WRITE, 1000 * 512, 4096, 0, 0, &r), 0);
    assert_int_equal(hdd_model_service(m, HDD_FLUSH, 0, 0, 0, 50 * MSEC, &r), 0);
    assert_int_equal(r.outcome, HDD_HIT);
    assert_ns(r.finish_ns, 50200000);
    hdd_model_free(m);
}

static void test_fua_and_write_through(void **state)
{
    struct hdd_params p = fixture();
    struct hdd_model *m = model(&p);
    struct hdd_result r;
    /* FUA write at LBA 1000 at t = 0: overhead 0.2 + seek 1.3738 + settle
     * 0.5 = ready 2.074 ms; angle 0.50 at 5.0 ms; 8 sectors: 5.8 ms. */
    assert_int_equal(hdd_model_service(m, HDD_WRITE, 1000 * 512, 4096, 1, 0, &r), 0);
    assert_int_equal(r.outcome, HDD_MISS);
    assert_ns(r.finish_ns, 5800000);
    assert_true(hdd_model_dirty_bytes(m) == 0);
    hdd_model_free(m);
    /* WCE off: a plain write goes to the media the same way. */
    p.write_cache = 0;
    m = model(&p);
    assert_int_equal(hdd_model_service(m, HDD_WRITE, 1000 * 512, 4096, 0, 0, &r), 0);
    assert_int_equal(r.outcome, HDD_MISS);
    assert_ns(r.finish_ns, 5800000);
    hdd_model_free(m);
}

/* Dispatches everything pending; records the order of tickets. */
static int drain(struct hdd_model *m, int *order, int max)
{
    int n = 0, t;
    while (n < max && (t = hdd_queue_next(m, INT64_MAX / 2)) >= 0)
        order[n++] = t;
    return n;
}

static void test_sptf(void **state)
{
    struct hdd_params p = fixture();
    p.queue_depth = 4;
    struct hdd_model *m = model(&p);
    int order[8];
    /* All at t = 0, arm at cylinder 0. A: cylinder 900 (LBA 180000), B:
     * LBA 50 on the current track, C: cylinder 100 (LBA 20000). B is
     * reached first (media at 5.0 ms). From B's end (5.1 ms), C: ready at
     * 5.6 + seek(100) = 5.6 + 2.98 = 8.58 ms, angle 100 * 30 mod 100 = 0 ->
     * 10 ms; A: ready 5.6 + 9.35 = 14.95 ms -> 20 ms. So B, C, A. */
    int a = hdd_queue_submit(m, HDD_READ, 180000ULL * 512, 4096, 0, 0);
    int b = hdd_queue_submit(m, HDD_READ, 50 * 512, 4096, 0, 0);
    int c = hdd_queue_submit(m, HDD_READ, 20000 * 512, 4096, 0, 0);
    assert_int_equal(hdd_queue_pending(m), 3);
    assert_int_equal(drain(m, order, 8), 3);
    assert_int_equal(order[0], b);
    assert_int_equal(order[1], c);
    assert_int_equal(order[2], a);
    struct hdd_result r;
    assert_int_equal(hdd_queue_done(m, b, &r), 1);
    assert_ns(r.finish_ns, 5800000);                /* B: media 5.0 + 8 * 0.1 = 5.8 ms */
    assert_int_equal(hdd_queue_done(m, b, &r), -1); /* forgotten */
    hdd_model_free(m);

    /* queue_depth 1 is FIFO: A, B, C. */
    p.queue_depth = 1;
    m = model(&p);
    a = hdd_queue_submit(m, HDD_READ, 180000ULL * 512, 4096, 0, 0);
    b = hdd_queue_submit(m, HDD_READ, 50 * 512, 4096, 0, 0);
    c = hdd_queue_submit(m, HDD_READ, 20000 * 512, 4096, 0, 0);
    assert_int_equal(drain(m, order, 8), 3);
    assert_int_equal(order[0], a);
    assert_int_equal(order[1], b);
    assert_int_equal(order[2], c);
    hdd_model_free(m);
}

static void test_aging(void **state)
{
    int order[8];
    for (int aged = 0; aged <= 1; aged++) {
        struct hdd_params p = fixture();
        p.queue_depth = 4;
        p.max_wait_ms = aged ? 3 : 100;
        struct hdd_model *m = model(&p);
        /* A (cylinder 900) and B1 (LBA 50) at t = 0; B1 goes first (media
         * 5.0 -> 5.8 ms). B2 (LBA 60, on B1's read-ahead stream, almost
         * free) arrives at 1 ms. At the decision at 5.8 ms A has waited 5.8
         * ms: with max_wait 100 ms SPTF picks B2 first; with 3 ms A has aged
         * and goes before B2. */
        int a = hdd_queue_submit(m, HDD_READ, 180000ULL * 512, 4096, 0, 0);
        int b1 = hdd_queue_submit(m, HDD_READ, 50 * 512, 4096, 0, 0);
        int b2 = hdd_queue_submit(m, HDD_READ, 60 * 512, 4096, 0, 1 * MSEC);
        assert_int_equal(drain(m, order, 8), 3);
        assert_int_equal(order[0], b1);
        assert_int_equal(order[1], aged ? a : b2);
        assert_int_equal(order[2], aged ? b2 : a);
        hdd_model_free(m);
    }
}

static void test_expectations(void **state)
{
    struct hdd_params p = fixture();
    /* Random 4 KiB over the whole drive: 0.5 overhead + about 5 ms seek
     * (head switch included: >= seek) + 5 ms half rotation + 0.8 ms media. */
    double ms = hdd_expect_random_ms(&p, p.capacity_bytes, 4096);
    assert_true(ms > 11.25 && ms < 11.5);
    /* Within one cylinder (102400 bytes) no seek: the head switch (1 ms)
     * with probability 1/2: 0.5 + 0.5 + 5 + 0.8 = 6.8 ms. */
    ms = hdd_expect_random_ms(&p, 102400, 4096);
    assert_true(ms > 6.79 && ms < 6.81);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_seek_lee),
        cmocka_unit_test(test_seek_hpl),
        cmocka_unit_test(test_rotation_wait),
        cmocka_unit_test(test_prefetch_hit_after_idle),
        cmocka_unit_test(test_wait_for_running_prefetch),
        cmocka_unit_test(test_stream_across_track_switch),
        cmocka_unit_test(test_prefetch_resumes_after_limit),
        cmocka_unit_test(test_sequential_direct_reads_stay_hits),
        cmocka_unit_test(test_write_back_then_flush),
        cmocka_unit_test(test_idle_destage),
        cmocka_unit_test(test_fua_and_write_through),
        cmocka_unit_test(test_sptf),
        cmocka_unit_test(test_aging),
        cmocka_unit_test(test_expectations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
