package io.locksmith.azure;

import com.azure.storage.blob.options.BlobAcquireLeaseOptions;
import com.azure.storage.blob.options.BlobRenewLeaseOptions;
import com.azure.storage.blob.specialized.BlobLeaseAsyncClient;
import io.locksmith.spi.HeldLease;
import io.locksmith.spi.RenewOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Renews a batch of leases: Azure has no batch renewal, so one request per lease, sent
 * concurrently on the async client's event loop (no thread per lock), a bounded number at a time
 * so a client holding thousands of locks does not open thousands of connections. A renewal for
 * another length than the lease was granted for (an extend) is a renew and then an acquire with
 * the same lease id and the new length: two calls, only when the length changes.
 */
final class LeaseRenewal {

    /** Requests in flight at once; a renewal is one small round trip, so this covers many locks per tick. */
    static final int CONCURRENCY = 16;

    /**
     * The most leases in one renewal call ({@link io.locksmith.spi.LockBackend#renewalBatchLimit()}):
     * a thousand leases take seconds on a slow or busy service, and the core credits each lease
     * from when its call was sent, so calls of this many keep a lease renewed late in a tick from
     * being counted as if renewed at its start. Eight rounds of {@link #CONCURRENCY} requests.
     */
    static final int BATCH_LIMIT = CONCURRENCY * 8;

    private final Function<HeldLease, BlobLeaseAsyncClient> leases;
    private final Duration timeout;

    LeaseRenewal(Function<HeldLease, BlobLeaseAsyncClient> leases, Duration timeout) {
        this.leases = leases;
        this.timeout = timeout;
    }

    List<RenewOutcome> renew(List<HeldLease> held) {
        AtomicReferenceArray<RenewOutcome> outcomes = new AtomicReferenceArray<>(held.size());
        // the whole batch gets a bound too, so one slow tick cannot hold the renewals past their leases
        Duration batchBound = timeout.multipliedBy(2 + held.size() / (CONCURRENCY * 50L));
        Flux.range(0, held.size())
                .flatMap(i -> renewOne(held.get(i)).doOnNext(o -> outcomes.set(i, o)), CONCURRENCY)
                .then()
                .timeout(batchBound, Mono.empty())
                .block();
        List<RenewOutcome> result = new ArrayList<>(held.size());
        for (int i = 0; i < held.size(); i++) {
            RenewOutcome o = outcomes.get(i);
            result.add(o == null ? RenewOutcome.FAILED : o);
        }
        return result;
    }

    private Mono<RenewOutcome> renewOne(HeldLease lease) {
        BlobLeaseAsyncClient client = leases.apply(lease);
        Mono<RenewOutcome> renewed = client.renewLeaseWithResponse(new BlobRenewLeaseOptions())
                .timeout(timeout)
                .map(r -> RenewOutcome.RENEWED)
                .onErrorResume(e -> Mono.just(outcome(e)));
        int wanted = LeaseTerm.seconds(lease.lease());
        LeaseTerm term = lease.attachment(LeaseTerm.class);
        if (term.seconds() == wanted) {
            return renewed;
        }
        // Renew restarts the lease with its old length. Acquiring again with the same lease id
        // sets a new length, but an acquire also succeeds on an expired lease that another owner
        // took and lost meanwhile, skipping that owner's fencing increment: so only once the renew
        // has proven the lease ours and active. If the change then fails, the old length stands,
        // and the core must not count the new one.
        return renewed.flatMap(outcome -> outcome != RenewOutcome.RENEWED
                ? Mono.just(outcome)
                : client.acquireLeaseWithResponse(new BlobAcquireLeaseOptions(wanted))
                        .timeout(timeout)
                        .map(r -> {
                            term.granted(wanted);
                            return RenewOutcome.RENEWED;
                        })
                        .onErrorResume(e -> Mono.just(RenewOutcome.FAILED)));
    }

    /** 404: the blob is gone; 409: the lease is broken, expired and taken, or has another id; 412: a condition failed. */
    static RenewOutcome outcome(Throwable e) {
        int status = AzureFailures.status(e);
        return status == 404 || status == 409 || status == 412 ? RenewOutcome.NOT_OWNED : RenewOutcome.FAILED;
    }
}
