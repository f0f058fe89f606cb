package io.locksmith.tck;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.Charset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * What the JVM writes while a rule runs: {@code System.out} and {@code System.err} (where
 * slf4j-simple, the kit's logger, writes its lines) and every {@code java.util.logging} record,
 * for the rule that no log line shows a credential. What is written still reaches the console.
 *
 * <p>The streams are the JVM's, shared by rules running in parallel: the first capture puts the
 * copying streams in place and the last one to close puts the originals back, so that captures
 * that overlap neither lose each other's text nor leave a copy behind.
 */
final class Output implements AutoCloseable {

    // what the console streams encode with unless told otherwise; the copy is read back with it
    private static final Charset CHARSET = Charset.defaultCharset();
    private static final List<Output> ACTIVE = new CopyOnWriteArrayList<>();
    private static PrintStream originalOut;
    private static PrintStream originalErr;
    private static Handler julHandler;

    private final ByteArrayOutputStream text = new ByteArrayOutputStream();

    private Output() {}

    /** @return a capture, running until closed */
    static synchronized Output capture() {
        Output o = new Output();
        if (ACTIVE.isEmpty()) {
            originalOut = System.out;
            originalErr = System.err;
            System.setOut(copying(originalOut));
            System.setErr(copying(originalErr));
            julHandler = new Handler() {
                @Override
                public void publish(LogRecord r) {
                    String line = r.getLevel() + " " + r.getLoggerName() + ": " + r.getMessage() + " "
                            + java.util.Arrays.toString(r.getParameters()) + " " + r.getThrown() + "\n";
                    byte[] bytes = line.getBytes(CHARSET);
                    copy(bytes, 0, bytes.length);
                }

                @Override
                public void flush() {}

                @Override
                public void close() {}
            };
            Logger.getLogger("").addHandler(julHandler);
        }
        ACTIVE.add(o);
        return o;
    }

    /** @return everything written since the capture began */
    synchronized String text() {
        return text.toString(CHARSET);
    }

    @Override
    public void close() {
        synchronized (Output.class) {
            if (ACTIVE.remove(this) && ACTIVE.isEmpty()) {
                System.setOut(originalOut);
                System.setErr(originalErr);
                Logger.getLogger("").removeHandler(julHandler);
            }
        }
    }

    private static PrintStream copying(PrintStream console) {
        return new PrintStream(
                new OutputStream() {
                    @Override
                    public void write(int b) {
                        write(new byte[] {(byte) b}, 0, 1);
                    }

                    @Override
                    public void write(byte[] b, int off, int len) {
                        console.write(b, off, len);
                        copy(b, off, len);
                    }

                    @Override
                    public void flush() {
                        console.flush();
                    }
                },
                true,
                CHARSET);
    }

    private static void copy(byte[] b, int off, int len) {
        for (Output o : ACTIVE) {
            synchronized (o) {
                o.text.write(b, off, len);
            }
        }
    }
}
