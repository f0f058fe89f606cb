package io.locksmith.faults;

import java.time.Duration;

/** What a nemesis acts on during one run: the target, the workers, and the controller's log. */
interface Stage {

    /** @return the backend under test */
    Target target();

    /** @return the controller's history, where every fault is logged as it happens */
    EventLog log();

    /** @return the live view of who holds and who waits */
    Tracker tracker();

    /**
     * @param id a worker's id
     * @return that worker
     */
    RunningWorker worker(String id);

    /**
     * Starts a fresh worker, with a new id, in place of one the nemesis killed.
     *
     * @param killed the killed worker's id
     */
    void replace(String killed);

    /** @return the name of the lock the workers compete for */
    String lockName();

    /** @return what the workers take under that name: the lock, a semaphore's permit, or leadership */
    WorkerSettings.Primitive primitive();

    /** @return the time left in the run */
    Duration remaining();
}
