package io.locksmith.cli;

import io.locksmith.DistributedLock;
import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.LockStatus;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code locksmith status NAME…}: who holds each lock, with which token, for how long. */
@Command(
        name = "status",
        mixinStandardHelpOptions = true,
        description = "Shows who holds each lock, its fencing token and remaining lease, where the backend can tell.")
final class StatusCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    UriOption uri = new UriOption();

    @Parameters(arity = "1..*", paramLabel = "NAME", description = "Lock names.")
    List<String> names;

    @Override
    public Integer call() {
        try (LockClient locks = uri.open(LockOptions.defaults())) {
            List<DistributedLock> checked = names.stream()
                    .map(n -> Main.argument(spec, () -> locks.lock(n)))
                    .toList();
            for (DistributedLock lock : checked) {
                String name = lock.name();
                LockStatus status = lock.status();
                System.out.println(
                        switch (status.state()) {
                            case FREE -> name + ": free";
                            case UNKNOWN ->
                                name + ": unknown (" + locks.backend() + " cannot tell without taking the lock)";
                            case HELD ->
                                name + ": held by " + status.owner().orElse("?") + ", token "
                                        + status.fencingToken().orElse(0)
                                        + status.remainingLease()
                                                .map(d -> ", " + d.toMillis() + " ms of lease left")
                                                .orElse("");
                        });
            }
        }
        return ExitCodes.OK;
    }
}
