package io.locksmith.testing;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** How to run one kind of server: prepare its data, its command line, when it is ready. */
interface Recipe {

    /** The backend the server belongs to. */
    Backend backend();

    /** One-time set-up of a fresh data directory (initdb, configuration files). */
    default void prepare(Path dir, int port) throws IOException {}

    /** The foreground command line that runs the server on the port with data under dir. */
    List<String> command(Path dir, int port);

    /** Whether the server answers its protocol; false or an IOException means "not yet". */
    boolean ready(int port) throws IOException;

    /** The server's version as it reports it. */
    String version(int port) throws IOException;

    /** The URI a client uses. */
    String uri(int port);
}
