//
// SPDX-FileCopyrightText: Copyright 2026 The kai authors
// SPDX-License-Identifier: Apache-2.0
//

// A minimal static thread pool for the examples (not part of kai: kai has no threads). Threads
// are started once; pool_run() hands chunk indexes [0, nchunks) out from an atomic counter to every
// thread, the caller included, and returns when all are done. C11 + POSIX threads.
#ifndef KAI_EXAMPLES_THREAD_POOL_H
#define KAI_EXAMPLES_THREAD_POOL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

enum { POOL_MAX_THREADS = 64 };

typedef void (*chunk_fn)(void* ctx, size_t chunk);

struct pool {
    pthread_t threads[POOL_MAX_THREADS];
    size_t nthreads;  // workers + the calling thread
    pthread_mutex_t mu;
    pthread_cond_t wake, done;
    unsigned long generation;
    size_t busy;
    int stop;
    chunk_fn fn;
    void* ctx;
    size_t nchunks;
    atomic_size_t next;
};

static inline void pool_drain(struct pool* p) {
    for (;;) {
        const size_t c = atomic_fetch_add(&p->next, 1);
        if (c >= p->nchunks) return;
        p->fn(p->ctx, c);
    }
}

static inline void* pool_worker(void* arg) {
    struct pool* p = arg;
    unsigned long seen = 0;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (p->generation == seen && !p->stop) pthread_cond_wait(&p->wake, &p->mu);
        if (p->stop) break;
        seen = p->generation;
        pthread_mutex_unlock(&p->mu);
        pool_drain(p);
        pthread_mutex_lock(&p->mu);
        if (--p->busy == 0) pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static inline void pool_start(struct pool* p, size_t nthreads) {
    memset(p, 0, sizeof(*p));
    p->nthreads = nthreads;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->done, NULL);
    for (size_t t = 1; t < nthreads; ++t) pthread_create(&p->threads[t], NULL, pool_worker, p);
}

// Runs fn(ctx, c) for c in [0, nchunks) on every thread of the pool (the caller included) and
// returns when all chunks are done.
static inline void pool_run(struct pool* p, size_t nchunks, chunk_fn fn, void* ctx) {
    pthread_mutex_lock(&p->mu);
    p->fn = fn;
    p->ctx = ctx;
    p->nchunks = nchunks;
    atomic_store(&p->next, 0);
    p->busy = p->nthreads - 1;
    ++p->generation;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    pool_drain(p);
    pthread_mutex_lock(&p->mu);
    while (p->busy != 0) pthread_cond_wait(&p->done, &p->mu);
    pthread_mutex_unlock(&p->mu);
}

static inline void pool_stop(struct pool* p) {
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->mu);
    for (size_t t = 1; t < p->nthreads; ++t) pthread_join(p->threads[t], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->done);
}

#endif  // KAI_EXAMPLES_THREAD_POOL_H
