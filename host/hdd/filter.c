/* nbdkit filter: every request takes as long as on the profile's era disk.
 *
 *   nbdkit -U SOCK --filter=build/nbdkit-hdd-filter.so file IMG \
 *          profile=lab/profiles/pata-2003.profile [trace=FILE] [capacity=BYTES]
 *
 * One model per nbdkit process (one process per virtual disk), shared by all
 * connections and guarded by a mutex. Parallel thread model with our own
 * scheduler (docs/disk-model.md, "Concurrency"): lock, arrival = now, compute (or
 * queue and dispatch by SPTF for queue_depth > 1), unlock, do the real I/O,
 * then sleep until the absolute finish time. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include <nbdkit-filter.h>

#include "host/hdd/model.h"
#include "host/hdd/profile.h"
#include "host/hdd/stats.h"

static char *profile_path, *trace_path, *stats_path;
static struct hdd_stats *stats; /* mapped stats=PATH, or NULL */
static uint64_t capacity_override;
static struct hdd_params params;
static struct hdd_model *model;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond;
static FILE *trace;
static char *trace_buf;
static int64_t t_first = -1;

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void hdd_unload(void)
{
    free(profile_path);
    free(trace_path);
    free(stats_path);
    if (stats)
        munmap(stats, sizeof *stats);
    stats = NULL;
    hdd_model_free(model);
    model = NULL;
}

static int hdd_config(nbdkit_next_config *next, nbdkit_backend *nxdata, const char *key,
                      const char *value)
{
    if (!strcmp(key, "profile")) {
        free(profile_path);
        profile_path = nbdkit_realpath(value);
        return profile_path ? 0 : -1;
    }
    if (!strcmp(key, "stats")) {
        free(stats_path);
        stats_path = strdup(value);
        return stats_path ? 0 : -1;
    }
    if (!strcmp(key, "trace")) {
        free(trace_path);
        trace_path = strdup(value);
        return trace_path ? 0 : -1;
    }
    if (!strcmp(key, "capacity")) {
        int64_t r = nbdkit_parse_size(value);
        if (r < 0)
            return -1;
        capacity_override = (uint64_t)r;
        return 0;
    }
    return next(nxdata, key, value);
}

static int hdd_config_complete(nbdkit_next_config_complete *next, nbdkit_backend *nxdata)
{
    char err[512];
    if (!profile_path) {
        nbdkit_error("hdd: profile=PATH is required");
        return -1;
    }
    if (hdd_profile_load(profile_path, &params, err, sizeof(err)) < 0) {
        nbdkit_error("hdd: %s", err);
        return -1;
    }
    if (capacity_override)
        params.capacity_bytes = capacity_override;
    return next(nxdata);
}

#define hdd_config_help                                                                            \
    "profile=PATH      (required) era disk profile (lab/profiles/*.profile)\n"                     \
    "trace=PATH        append one line per request\n"                                              \
    "stats=PATH        map deadline overrun counters (hdd/stats.h) into PATH\n"                    \
    "capacity=BYTES    override the drive's capacity"

static int hdd_get_ready(int thread_model)
{
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&cond, &ca);
    pthread_condattr_destroy(&ca);
    if (stats_path) {
        int fd = open(stats_path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0 || ftruncate(fd, sizeof *stats) < 0 ||
            (stats = mmap(NULL, sizeof *stats, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) ==
                MAP_FAILED) {
            nbdkit_error("hdd: %s: %s", stats_path, strerror(errno));
            stats = NULL;
            if (fd >= 0)
                close(fd);
            return -1;
        }
        close(fd);
        __atomic_store_n(&stats->magic, HDD_STATS_MAGIC, __ATOMIC_RELEASE);
    }
    if (trace_path) {
        trace = fopen(trace_path, "a");
        if (!trace) {
            nbdkit_error("hdd: %s: %s", trace_path, strerror(errno));
            return -1;
        }
        trace_buf = malloc(1 << 20);
        if (trace_buf)
            setvbuf(trace, trace_buf, _IOFBF, 1 << 20);
    }
    return 0;
}

static void hdd_cleanup(nbdkit_backend *nxdata)
{
    pthread_mutex_lock(&lock);
    if (trace) {
        fclose(trace);
        trace = NULL;
    }
    pthread_mutex_unlock(&lock);
    free(trace_buf);
    trace_buf = NULL;
}

static int hdd_prepare(nbdkit_next *next, void *handle, int readonly)
{
    int64_t size = next->get_size(next);
    char err[512];
    if (size < 0)
        return -1;
    pthread_mutex_lock(&lock);
    if (!model) {
        model = hdd_model_new(&params, (uint64_t)size, err, sizeof(err));
        if (!model) {
            pthread_mutex_unlock(&lock);
            nbdkit_error("hdd: %s", err);
            return -1;
        }
    }
    pthread_mutex_unlock(&lock);
    return 0;
}

static void hdd_close(void *handle)
{
    pthread_mutex_lock(&lock);
    if (trace)
        fflush(trace);
    pthread_mutex_unlock(&lock);
}

static void *hdd_open(nbdkit_next_open *next, nbdkit_context *ctx, int readonly,
                      const char *exportname, int is_tls)
{
    if (next(ctx, readonly, exportname) == -1)
        return NULL;
    return NBDKIT_HANDLE_NOT_NEEDED;
}

static int hdd_is_rotational(nbdkit_next *next, void *handle)
{
    return 1;
}

static const char *const op_name[] = {"read", "write", "flush"};
static const char *const outcome_name[] = {"miss", "hit", "partial"};

/* Computes the request's finish time (ns, CLOCK_MONOTONIC). */
static int64_t model_request(int op, uint64_t offset, uint32_t len, int fua)
{
    struct hdd_result r = {0};
    pthread_mutex_lock(&lock);
    int64_t now = now_ns();
    if (!model) {
        pthread_mutex_unlock(&lock);
        return now;
    }
    if (params.queue_depth <= 1) {
        if (hdd_model_service(model, op, offset, len, fua, now, &r) < 0)
            r.finish_ns = r.start_ns = now;
    } else {
        int ticket;
        while ((ticket = hdd_queue_submit(model, op, offset, len, fua, now)) < 0)
            pthread_cond_wait(&cond, &lock);
        for (;;) {
            if (hdd_queue_done(model, ticket, &r) != 0)
                break;
            int64_t t = now_ns(), free_at = hdd_queue_free_at(model);
            if (free_at <= t && hdd_queue_next(model, t) >= 0) {
                pthread_cond_broadcast(&cond);
                continue;
            }
            int64_t dl = free_at > t ? free_at : t + 100000;
            struct timespec ts = {dl / 1000000000, dl % 1000000000};
            pthread_cond_timedwait(&cond, &lock, &ts);
        }
        pthread_cond_broadcast(&cond);
    }
    if (trace) {
        if (t_first < 0) {
            /* The times below are relative to this CLOCK_MONOTONIC value,
             * the first traced request's arrival: absolute = t0_ns + t. */
            t_first = now;
            fprintf(trace, "# t0_ns=%" PRId64 "\n", t_first);
        }
        fprintf(trace, "%s\t%" PRIu64 "\t%" PRIu32 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%s\n",
                op_name[op], offset, len, r.arrival_ns - t_first, r.start_ns - t_first,
                r.finish_ns - t_first, outcome_name[r.outcome]);
    }
    pthread_mutex_unlock(&lock);
    return r.finish_ns;
}

static int sleep_until(int64_t finish, int *err)
{
    /* The default 50 us timer slack would add to every request. */
    static __thread int slack_set;
    if (!slack_set) {
        prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
        slack_set = 1;
    }
    int64_t rem = finish - now_ns();
    if (rem > 0 &&
        nbdkit_nanosleep((unsigned)(rem / 1000000000), (unsigned)(rem % 1000000000)) == -1) {
        *err = errno ? errno : ESHUTDOWN;
        return -1;
    }
    if (stats) {
        /* How much later than the model said the reply is ready. */
        int64_t late = now_ns() - finish;
        __atomic_add_fetch(&stats->requests, 1, __ATOMIC_RELAXED);
        if (late > 0) {
            __atomic_add_fetch(&stats->late_ns, (uint64_t)late, __ATOMIC_RELAXED);
            if (late > HDD_STATS_LATE_NS)
                __atomic_add_fetch(&stats->late, 1, __ATOMIC_RELAXED);
            uint64_t max = __atomic_load_n(&stats->max_late_ns, __ATOMIC_RELAXED);
            while ((uint64_t)late > max &&
                   !__atomic_compare_exchange_n(&stats->max_late_ns, &max, (uint64_t)late, 1,
                                                __ATOMIC_RELAXED, __ATOMIC_RELAXED))
                ;
        }
    }
    return 0;
}

static int hdd_pread(nbdkit_next *next, void *handle, void *buf, uint32_t count, uint64_t offset,
                     uint32_t flags, int *err)
{
    int64_t fin = model_request(HDD_READ, offset, count, 0);
    if (next->pread(next, buf, count, offset, flags, err) == -1)
        return -1;
    return sleep_until(fin, err);
}

static int hdd_pwrite(nbdkit_next *next, void *handle, const void *buf, uint32_t count,
                      uint64_t offset, uint32_t flags, int *err)
{
    int64_t fin = model_request(HDD_WRITE, offset, count, !!(flags & NBDKIT_FLAG_FUA));
    if (next->pwrite(next, buf, count, offset, flags, err) == -1)
        return -1;
    return sleep_until(fin, err);
}

static int hdd_zero(nbdkit_next *next, void *handle, uint32_t count, uint64_t offset,
                    uint32_t flags, int *err)
{
    /* Era drives have no WRITE SAME: zeroing costs a write. */
    int64_t fin = model_request(HDD_WRITE, offset, count, !!(flags & NBDKIT_FLAG_FUA));
    if (next->zero(next, count, offset, flags, err) == -1)
        return -1;
    return sleep_until(fin, err);
}

static int hdd_flush(nbdkit_next *next, void *handle, uint32_t flags, int *err)
{
    int64_t fin = model_request(HDD_FLUSH, 0, 0, 0);
    if (next->flush(next, flags, err) == -1)
        return -1;
    return sleep_until(fin, err);
}

static struct nbdkit_filter filter = {
    .name = "hdd",
    .longname = "lab era hard-disk timing model",
    .unload = hdd_unload,
    .config = hdd_config,
    .config_complete = hdd_config_complete,
    .config_help = hdd_config_help,
    .get_ready = hdd_get_ready,
    .cleanup = hdd_cleanup,
    .open = hdd_open,
    .prepare = hdd_prepare,
    .close = hdd_close,
    .is_rotational = hdd_is_rotational,
    .pread = hdd_pread,
    .pwrite = hdd_pwrite,
    .zero = hdd_zero,
    .flush = hdd_flush,
};

NBDKIT_REGISTER_FILTER(filter)
