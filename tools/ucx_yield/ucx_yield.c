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
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

/* ucp_worker_h is an opaque pointer; avoid depending on the UCX headers. */
typedef unsigned (*ucp_worker_progress_fn)(void *worker);

static ucp_worker_progress_fn real_progress;

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
        fn = u.fn;
        __atomic_store_n(&real_progress, fn, __ATOMIC_RELEASE);
    }
    return fn;
}

__attribute__((visibility("default")))
unsigned ucp_worker_progress(void *worker)
{
    unsigned progressed = resolve_real()(worker);
    if (progressed == 0)
        sched_yield();
    return progressed;
}
