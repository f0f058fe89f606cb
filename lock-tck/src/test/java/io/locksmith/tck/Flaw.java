package io.locksmith.tck;

import io.locksmith.LockBackendException;
import io.locksmith.spi.AcquireRequest;
import io.locksmith.spi.AcquireResult;
import io.locksmith.spi.BackendContext;
import io.locksmith.spi.ForwardingLockBackend;
import io.locksmith.spi.Grant;
import io.locksmith.spi.Held;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.LockBackend;
import io.locksmith.spi.LockInspector;
import io.locksmith.spi.ReleaseSignals;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.LoggerFactory;

/**
 * One way a provider can be wrong, as a backend over a {@link MemoryServer} that is sound in
 * every other call. Each is a mistake real backends make; the kit's own tests run the rule it
 * breaks against it and expect that rule to fail ({@code BrokenProvidersTest}). {@link #NONE} and
 * {@link #QUEUED} are the sound providers, polling and queued, which must pass every rule.
 */
enum Flaw {

    /** No flaw: the sound provider. */
    NONE {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return sound;
        }
    },

    /** No flaw, with a native FIFO queue: the sound queued provider. */
    QUEUED {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return new QueuedBackend(sound, false, false);
        }

        @Override
        boolean queues() {
            return true;
        }
    },

    /** Admits one holder more than a semaphore's permits. */
    SEMAPHORE_ADMITS_ONE_MORE {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return sound.quirk(MemoryServer.Quirk.ADMITS_ONE_MORE_PERMIT);
        }
    },

    /** Admits one holder, whatever a semaphore's permits. */
    SEMAPHORE_ADMITS_ONE {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return sound.quirk(MemoryServer.Quirk.ADMITS_ONE_PERMIT);
        }
    },

    /** Grants a permit whatever number of permits the request gives. */
    PERMIT_MISMATCH_IGNORED {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return sound.quirk(MemoryServer.Quirk.IGNORES_PERMIT_MISMATCH);
        }
    },

    /** Counts tokens per permit slot: a permit's token can fall behind another's. */
    TOKENS_PER_PERMIT_SLOT {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return sound.quirk(MemoryServer.Quirk.TOKENS_PER_PERMIT_SLOT);
        }
    },

    /** Grants readers while a writer waits: writers starve behind a stream of readers. */
    READERS_PASS_A_WAITING_WRITER {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return sound.quirk(MemoryServer.Quirk.READERS_PASS_A_WAITING_WRITER);
        }
    },

    /** Leaves a writer's waiting mark when it stops waiting: readers wait out two leases for nobody. */
    WRITER_MARK_LEFT_BEHIND {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return sound.quirk(MemoryServer.Quirk.ABANDON_LEAVES_THE_MARK);
        }
    },

    /** Grants permits for the shortest lease whatever was asked: a rate limiter's grant ends before its window. */
    PERMIT_LEASE_IGNORED {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return sound.quirk(MemoryServer.Quirk.PERMIT_LEASE_IGNORED);
        }
    },

    /** Keeps semaphores and read-write locks in one namespace, which locks see too. */
    FAMILIES_SHARE_ONE_NAMESPACE {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return sound.quirk(MemoryServer.Quirk.FAMILIES_SHARE_ONE_NAMESPACE);
        }
    },

    /** Stores a semaphore's and a read-write lock's keys as the name with an unescaped suffix, where locks' keys meet them. */
    KEYS_SUFFIXED_UNESCAPED {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return sound.quirk(MemoryServer.Quirk.KEYS_SUFFIXED_UNESCAPED);
        }
    },

    /** Grants the newest waiter first: its queue read from the wrong end. */
    QUEUE_FROM_THE_BACK {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return new QueuedBackend(sound, true, false);
        }

        @Override
        boolean queues() {
            return true;
        }
    },

    /** Leaves a cancelled waiter's entry in the queue, where it blocks every waiter behind it. */
    QUEUE_CANCEL_LEAVES_ENTRY {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return new QueuedBackend(sound, false, true);
        }

        @Override
        boolean queues() {
            return true;
        }
    },

    /** Aborts one required rule as a skip would, for no capability it declared (the runner's own test). */
    ABORTS_A_RULE {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return new ForwardingLockBackend(sound) {
                @Override
                public AcquireResult tryAcquire(AcquireRequest r) {
                    if (r.key().contains("required_tokensIncreaseAcrossGrantsAndClients")) {
                        throw new org.opentest4j.TestAbortedException("this provider cannot take this lock today");
                    }
                    return sound.tryAcquire(r);
                }
            };
        }
    },

    /** Reads the holder, then writes its own entry in a second round trip (GET, then SET without NX). */
    CHECK_THEN_SET {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return new ForwardingLockBackend(sound) {
                @Override
                public AcquireResult tryAcquire(AcquireRequest r) {
                    sound.reachable(r.name());
                    MemoryServer.Entry holder = sound.server().holder(r.key());
                    if (holder != null && !holder.owner().equals(r.owner())) {
                        return Held.UNKNOWN;
                    }
                    LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(50)); // the round trip between the two
                    return sound.server().overwrite(r);
                }
            };
        }
    },

    /** Keeps each connection's keys apart (a per-connection namespace): clients never see each other's locks. */
    KEYS_PER_CONNECTION {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            String connection = UUID.randomUUID() + ":";
            return new Rewritten(sound, key -> connection + key, owner -> owner);
        }
    },

    /** Cuts keys to 40 characters, as a too-narrow column silently does. */
    KEYS_TRUNCATED {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return new Rewritten(sound, key -> key.length() <= 40 ? key : key.substring(0, 40), owner -> owner);
        }
    },

    /** Escapes characters a store refuses to one replacement: {@code a/b}, {@code a:b} and {@code a_b} collide. */
    KEYS_ESCAPED_LOSSILY {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return new Rewritten(sound, key -> key.replaceAll("[/\\\\:*?]", "_"), owner -> owner);
        }
    },

    /** Stores the client's id as the owner, so a second acquisition by the same client is "its own grant". */
    OWNER_IS_THE_CLIENT {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            String client = UUID.randomUUID().toString();
            return new Rewritten(sound, key -> key, owner -> client);
        }
    },

    /** The first attempt on a key creates its row and answers as if the key were held. */
    FIRST_ATTEMPT_REFUSED {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            Set<String> seen = ConcurrentHashMap.newKeySet();
            return new ForwardingLockBackend(sound) {
                @Override
                public AcquireResult tryAcquire(AcquireRequest r) {
                    return seen.add(r.key()) ? Held.UNKNOWN : sound.tryAcquire(r);
                }
            };
        }
    },

    /**
     * On a held key, answers only after a 5 s lock wait (a row lock taken without NOWAIT), and a
     * thread interrupted meanwhile keeps waiting with its interrupt cleared, as some drivers do.
     */
    WAITS_WHILE_HELD {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return new ForwardingLockBackend(sound) {
                @Override
                public AcquireResult tryAcquire(AcquireRequest r) {
                    AcquireResult result = sound.tryAcquire(r);
                    if (result instanceof Held) {
                        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                        for (long left = until - System.nanoTime(); left > 0; left = until - System.nanoTime()) {
                            LockSupport.parkNanos(left);
                            Thread.interrupted(); // the flaw: the interrupt is swallowed
                        }
                    }
                    return result;
                }
            };
        }
    },

    /** Sets no operation timeout: an attempt never answers until the client is closed. */
    ATTEMPT_NEVER_ANSWERS {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            CountDownLatch closed = new CountDownLatch(1);
            return new ForwardingLockBackend(sound) {
                @Override
                public AcquireResult tryAcquire(AcquireRequest r) {
                    try {
                        closed.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    throw new LockBackendException(description() + ": no answer for lock '" + r.name() + "'");
                }

                @Override
                public void close() {
                    closed.countDown();
                }
            };
        }
    },

    /** Answers that it released, and leaves the key until its lease runs out. */
    RELEASE_KEEPS_THE_KEY {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return new ForwardingLockBackend(sound) {
                @Override
                public boolean release(HeldLease lease) {
                    sound.reachable(lease.name());
                    return true;
                }
            };
        }
    },

    /** Takes the lease's milliseconds for seconds (PX and EX mixed up): a crashed holder blocks for 1,000 leases. */
    LEASE_IN_SECONDS {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return new ForwardingLockBackend(sound) {
                @Override
                public AcquireResult tryAcquire(AcquireRequest r) {
                    return sound.tryAcquire(r.withLease(r.lease().multipliedBy(1000)));
                }

                @Override
                public List<RenewOutcome> renew(List<HeldLease> leases) {
                    return sound.renew(leases.stream()
                            .map(l -> l.withLease(l.lease().multipliedBy(1000)))
                            .toList());
                }
            };
        }
    },

    /** Renews the first 100 leases of a batch (an argument limit) and answers "renewed" for all. */
    RENEWS_ONLY_A_HUNDRED {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return new ForwardingLockBackend(sound) {
                @Override
                public List<RenewOutcome> renew(List<HeldLease> leases) {
                    List<RenewOutcome> out =
                            new ArrayList<>(sound.renew(leases.subList(0, Math.min(100, leases.size()))));
                    out.addAll(Collections.nCopies(leases.size() - out.size(), RenewOutcome.RENEWED));
                    return out;
                }
            };
        }
    },

    /** Keeps a thread per held lock (a keep-alive per grant): a second renewal core. */
    THREAD_PER_LOCK {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            Map<String, Thread> keepAlives = new ConcurrentHashMap<>();
            return new ForwardingLockBackend(sound) {
                @Override
                public AcquireResult tryAcquire(AcquireRequest r) {
                    AcquireResult result = sound.tryAcquire(r);
                    if (result instanceof Grant) {
                        Thread t = new Thread(
                                () -> {
                                    while (!Thread.currentThread().isInterrupted()) {
                                        LockSupport.park();
                                    }
                                },
                                "keep-alive " + r.key());
                        t.setDaemon(true);
                        t.start();
                        keepAlives.put(r.owner(), t);
                    }
                    return result;
                }

                @Override
                public boolean release(HeldLease lease) {
                    Optional.ofNullable(keepAlives.remove(lease.owner())).ifPresent(Thread::interrupt);
                    return sound.release(lease);
                }

                @Override
                public void close() {
                    keepAlives.values().forEach(Thread::interrupt);
                }
            };
        }
    },

    /** Answers "renewed" when it could not reach the server (a client library's optimistic reply). */
    RENEWS_WHILE_UNREACHABLE {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return new ForwardingLockBackend(sound) {
                @Override
                public List<RenewOutcome> renew(List<HeldLease> leases) {
                    try {
                        return sound.renew(leases);
                    } catch (LockBackendException e) {
                        return Collections.nCopies(leases.size(), RenewOutcome.RENEWED);
                    }
                }
            };
        }
    },

    /** Keeps the fence counter in the lock's own state, so removing the state restarts the tokens. */
    FENCE_IN_LOCK_STATE {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return sound;
        }

        @Override
        void removeLockState(MemoryServer server, String key) {
            server.remove(key);
            server.forgetFence(key);
        }
    },

    /** Declares neither its minimum lease nor its maximum: every lease is accepted, and kept or not. */
    LEASE_LIMITS_UNDECLARED {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return new ForwardingLockBackend(sound) {
                @Override
                public Duration minimumLease() {
                    return Duration.ofNanos(1);
                }

                @Override
                public Duration maximumLease() {
                    return Duration.ofSeconds(Long.MAX_VALUE);
                }
            };
        }
    },

    /** Reads status from the key's latest grant without checking that it is still held: a released holder shows as holding. */
    STATUS_READS_RELEASED_GRANTS {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return new ForwardingLockBackend(sound) {
                @Override
                public Optional<LockInspector> inspector() {
                    return Optional.of(key -> Optional.ofNullable(sound.server().lastGrant(key))
                            .map(e -> new LockInspector.HolderState(e.owner(), e.token(), null)));
                }
            };
        }
    },

    /** Subscribes to release signals that never fire, and never tells the holder's remaining lease. */
    SIGNALS_NEVER_FIRE {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return new ForwardingLockBackend(sound) {
                @Override
                public AcquireResult tryAcquire(AcquireRequest r) {
                    AcquireResult result = sound.tryAcquire(r);
                    return result instanceof Held ? Held.UNKNOWN : result;
                }

                @Override
                public Optional<ReleaseSignals> releaseSignals() {
                    return Optional.of(key -> () -> {});
                }
            };
        }
    },

    /** Names its server in its errors by the URI as given, password and all ({@code DriverManager}'s mistake). */
    SHOWS_THE_CREDENTIAL {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            return sound;
        }

        @Override
        String shown(BackendContext context) {
            return context.location();
        }
    },

    /** Logs the URI it connects to as given, password and all. */
    LOGS_THE_CREDENTIAL {
        @Override
        LockBackend wrap(MemoryBackend sound) {
            LoggerFactory.getLogger(FlawedProvider.class).error("flawed backend connected to {}", sound.location());
            return sound;
        }
    };

    /** @return this flaw's backend over one client's sound connection */
    abstract LockBackend wrap(MemoryBackend sound);

    /** @return whether the provider queues waiters natively, in arrival order as it claims */
    boolean queues() {
        return false;
    }

    /** @return how the provider names the server in its errors: the location, credentials masked */
    String shown(BackendContext context) {
        return context.redactedLocation();
    }

    /** Removes a lock's state on the server for the kit's fault hook; the fence counter stays unless the flaw loses it. */
    void removeLockState(MemoryServer server, String key) {
        server.remove(key);
    }
}
