package io.locksmith.azure;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The ETag and fencing counter of the metadata this client last wrote, per blob. When a lease
 * acquisition answers with the same ETag (lease operations do not change it), nobody has written
 * the blob since, so the counter is known without reading it: the write that increments it is
 * sent at once, conditioned on that ETag, and an acquisition costs two calls instead of three.
 * Bounded, least recently used first out: a miss costs only the read.
 */
final class FenceCache {

    private static final int CAPACITY = 10_000;

    /** What this client last wrote to a blob: its ETag after the write, the counter and the owner it granted. */
    record Written(String etag, long fence, String owner) {}

    private final Map<String, Written> written = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Written> eldest) {
            return size() > CAPACITY;
        }
    };

    synchronized Written get(String blob) {
        return written.get(blob);
    }

    synchronized void put(String blob, String etag, long fence, String owner) {
        if (etag == null) {
            written.remove(blob);
        } else {
            written.put(blob, new Written(etag, fence, owner));
        }
    }

    synchronized void forget(String blob) {
        written.remove(blob);
    }
}
