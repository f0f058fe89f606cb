package io.locksmith.redis;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import io.lettuce.core.api.sync.RedisScriptingCommands;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;

/**
 * A Lua script shipped as a resource next to this class, run by its SHA-1 and sent whole only
 * when the server does not know it yet (first use, or after a restart: NOSCRIPT).
 */
final class RedisScript {

    static final RedisScript ACQUIRE = load("acquire.lua");
    static final RedisScript RELEASE = load("release.lua");
    static final RedisScript RENEW = load("renew.lua");
    static final RedisScript ABANDON = load("abandon.lua");
    static final RedisScript SEMAPHORE_ACQUIRE = load("semaphore-acquire.lua");
    static final RedisScript READWRITE_ACQUIRE = load("readwrite-acquire.lua");
    static final RedisScript SHARED_RELEASE = load("shared-release.lua");
    static final RedisScript SHARED_ABANDON = load("shared-abandon.lua");
    static final RedisScript SHARED_HOLDERS = load("shared-holders.lua");
    static final RedisScript RENEW_MIXED = load("renew-mixed.lua");

    private final String name;
    private final String text;
    private final String sha;

    private RedisScript(String name, String text) {
        this.name = name;
        this.text = text;
        this.sha = sha1(text);
    }

    <T> T run(RedisScriptingCommands<String, String> commands, ScriptOutputType type, String[] keys, String... args) {
        try {
            return commands.evalsha(sha, type, keys, args);
        } catch (RedisNoScriptException e) {
            return commands.eval(text, type, keys, args);
        }
    }

    /** As {@link #run}, without waiting: the reply completes the returned future (NOSCRIPT handled the same way). */
    <T> CompletableFuture<T> runAsync(
            RedisScriptingAsyncCommands<String, String> commands,
            ScriptOutputType type,
            String[] keys,
            String... args) {
        CompletableFuture<T> reply = new CompletableFuture<>();
        commands.<T>evalsha(sha, type, keys, args).whenComplete((value, failure) -> {
            if (failure == null) {
                reply.complete(value);
            } else if (failure instanceof RedisNoScriptException
                    || failure.getCause() instanceof RedisNoScriptException) {
                commands.<T>eval(text, type, keys, args).whenComplete((again, stillFailing) -> {
                    if (stillFailing == null) {
                        reply.complete(again);
                    } else {
                        reply.completeExceptionally(stillFailing);
                    }
                });
            } else {
                reply.completeExceptionally(failure);
            }
        });
        return reply;
    }

    @Override
    public String toString() {
        return name;
    }

    private static RedisScript load(String name) {
        try (InputStream in = RedisScript.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("script resource " + name + " is missing from lock-redis");
            }
            return new RedisScript(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
