/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ucx_yield: LD_PRELOAD shim that makes UCX busy-polling oversubscription-friendly.
 *
 * MPICH's ch4:ucx device spins in ucp_worker_progress() while it waits. When
 * more ranks than cores run (e.g. 27 ranks on 2 cores) the spinning ranks
 * starve the ranks that would make progress, and collectives become orders of
 * magnitude slower. This shim interposes ucp_worker_progress(), calls the real
 * one (found with dlsym(RTLD_NEXT, ...)), and gives the core away with
 * sched_yield() whenever the call progressed nothing.
 *
 * Optional back-off (off by default): with CARTCOLL_UCX_YIELD_SLEEP_US=N (N > 0)
 * a thread that has seen more than CARTCOLL_UCX_YIELD_SPINS (default 10)
 * consecutive idle polls sleeps N microseconds instead of yielding. sched_yield()
 * alone keeps every waiting rank runnable; when the machine also runs unrelated
 * work (parallel builds), 200 ring Sendrecv+Barrier steps on 27 ranks / 2 cores
 * took 2.8-5 s with yield only and 0.2 s with CARTCOLL_UCX_YIELD_SPINS=1
 * CARTCOLL_UCX_YIELD_SLEEP_US=50 (57 s without the shim). Sleeping adds wake-up
 * latency (~150 us per step at 2 ranks on 2 cores), so use it only when
 * oversubscribed.
 *
 * Usage:
 *   LD_PRELOAD=/path/to/libcartcoll_ucx_yield.so mpiexec.mpich -n 27 ./prog
 * (mpiexec.mpich passes the environment on to the ranks.) The shim does not
 * link against UCX and is inert in processes that never call UCX. Ranks built
 * with -fsanitize=address need ASAN_OPTIONS=verify_asan_link_order=0, or the
 * ASan runtime preloaded first: LD_PRELOAD="$(gcc -print-file-name=libasan.so):...".
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* ucp_worker_h is an opaque pointer; avoid depending on the UCX headers. */
typedef unsigned (*ucp_worker_progress_fn)(void *worker);

static ucp_worker_progress_fn real_progress;
static long sleep_ns;          /* 0: never sleep, only sched_yield() */
static unsigned long idle_spins = 10;
static __thread unsigned long idle_polls;

static long env_long(const char *name, long fallback)
{
    const char *s = getenv(name);
    if (s == NULL || *s == '\0')
        return fallback;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < 0) {
        fprintf(stderr, "ucx_yield: ignoring %s=%s (want a non-negative integer)\n", name, s);
        return fallback;
    }
    return v;
}

static ucp_worker_progress_fn resolve_real(void)
{
    ucp_worker_progress_fn fn = __atomic_load_n(&real_progress, __ATOMIC_ACQUIRE);
    if (fn == NULL) {
        /* dlsym returns void *; ISO C has no object-to-function pointer cast. */
        union { void *obj; ucp_worker_progress_fn fn; } u;
        u.obj = dlsym(RTLD_NEXT, "ucp_worker_progress");
        if (u.obj == NULL) {
            const char *err = dlerror();
            fprintf(stderr, "ucx_yield: cannot find the real ucp_worker_progress: %s\n",
                    err ? err : "symbol not found");
            abort();
        }
        long us = env_long("CARTCOLL_UCX_YIELD_SLEEP_US", 0);
        if (us > 1000000)
            us = 1000000;
        __atomic_store_n(&sleep_ns, us * 1000, __ATOMIC_RELAXED);
        __atomic_store_n(&idle_spins, (unsigned long)env_long("CARTCOLL_UCX_YIELD_SPINS", 10),
                         __ATOMIC_RELAXED);
        fn = u.fn;
        /* Racing first callers store identical values; release publishes them. */
        __atomic_store_n(&real_progress, fn, __ATOMIC_RELEASE);
    }
    return fn;
}

__attribute__((visibility("default")))
unsigned ucp_worker_progress(void *worker)
{
    unsigned progressed = resolve_real()(worker);
    if (progressed != 0) {
        idle_polls = 0;
        return progressed;
    }
    long ns = __atomic_load_n(&sleep_ns, __ATOMIC_RELAXED);
    if (ns > 0 && ++idle_polls > __atomic_load_n(&idle_spins, __ATOMIC_RELAXED)) {
        struct timespec ts = { ns / 1000000000L, ns % 1000000000L };
        nanosleep(&ts, NULL);
    } else {
        sched_yield();
    }
    return 0;
}
