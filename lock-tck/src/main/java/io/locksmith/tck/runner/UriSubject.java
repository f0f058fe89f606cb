package io.locksmith.tck.runner;

import io.locksmith.LockClient;
import io.locksmith.LockOptions;
import io.locksmith.tck.Capabilities;
import io.locksmith.tck.TckSubject;

/** A subject opened from a URI by whichever provider claims it; no fault hooks. */
final class UriSubject implements TckSubject {

    private final String uri;
    private final Capabilities capabilities;

    UriSubject(String uri, Capabilities capabilities) {
        this.uri = uri;
        this.capabilities = capabilities;
    }

    @Override
    public String name() {
        try (LockClient probe = LockClient.open(uri)) {
            return probe.backend();
        }
    }

    @Override
    public LockClient newClient(LockOptions options) {
        return LockClient.open(uri, options);
    }

    @Override
    public Capabilities capabilities() {
        return capabilities;
    }
}
