package io.locksmith.cli;

import io.locksmith.LockConfigurationException;
import io.locksmith.LockException;
import io.locksmith.LockTimeoutException;
import io.locksmith.PermitMismatchException;
import io.locksmith.spi.Redaction;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.Properties;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code locksmith} command. */
@Command(
        name = "locksmith",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Distributed locks from the command line.",
        subcommands = {
            DemoCommand.class,
            RunCommand.class,
            StatusCommand.class,
            BenchCommand.class,
            TckCommand.class,
            CommandLine.HelpCommand.class
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:done (run: the command's own exit code)",
            "1:the demo's story did not come out; tck: a rule failed",
            "2:bad arguments (an unknown option, a missing or malformed value, an empty or too long lock name)",
            "65:run --permits N: the semaphore's holders gave another number of permits",
            "69:the backend could not be reached",
            "75:the lock (or every permit) stayed held for the whole wait",
            "76:the lock was lost while the command ran",
            "78:bad configuration (URI, options, provider; a primitive the backend does not keep)",
            "127:the command to run was not found",
            "128+N:run was stopped by signal N (143: SIGTERM, 130: Ctrl-C)"
        })
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * Runs the command and exits with its code.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /**
     * Runs the command.
     *
     * @param args the command line
     * @return the exit code
     */
    static int run(String... args) {
        CommandLine cli = new CommandLine(new Main());
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        cli.setExecutionExceptionHandler(Main::failed);
        cli.setParameterExceptionHandler(Main::badArguments);
        return cli.execute(args);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(
                spec.commandLine(), "a subcommand is needed: demo, run, status, bench, tck");
    }

    /**
     * Runs a check of a user's argument (a lock name, a lease) that the library makes.
     *
     * @param spec the subcommand, for its usage message
     * @param check the check, returning the checked value
     * @return the value
     * @throws CommandLine.ParameterException if the library refused the argument: exit 2, with the usage
     */
    static <T> T argument(CommandLine.Model.CommandSpec spec, Supplier<T> check) {
        try {
            return check.get();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), Redaction.redact(String.valueOf(e.getMessage())), e);
        }
    }

    private static int badArguments(CommandLine.ParameterException e, String[] args) {
        PrintWriter err = e.getCommandLine().getErr();
        err.println("locksmith: " + e.getMessage());
        CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
        e.getCommandLine().usage(err);
        return ExitCodes.USAGE;
    }

    private static int failed(Exception e, CommandLine cli, CommandLine.ParseResult parsed) {
        PrintWriter err = cli.getErr();
        String message = describe(e);
        err.println("locksmith: " + message);
        // the reason is often only in a cause ("cannot connect to ...: null" without it)
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause.getMessage() != null && !message.contains(cause.getMessage())) {
                err.println("  cause: " + Redaction.redact(cause.toString()));
            }
        }
        if (e instanceof LockTimeoutException) {
            return ExitCodes.LOCK_HELD;
        }
        if (e instanceof PermitMismatchException) {
            return ExitCodes.PERMIT_MISMATCH;
        }
        if (e instanceof LockConfigurationException
                || e instanceof IllegalArgumentException
                || e instanceof UnsupportedOperationException) {
            return ExitCodes.CONFIG;
        }
        return ExitCodes.UNAVAILABLE;
    }

    /** The library's messages are already redacted (masking them again mangles hints that show a URI's shape). */
    private static String describe(Exception e) {
        if (e instanceof LockException && e.getMessage() != null) {
            return e.getMessage();
        }
        if ((e instanceof IllegalArgumentException || e instanceof UnsupportedOperationException)
                && e.getMessage() != null) {
            return Redaction.redact(e.getMessage());
        }
        return Redaction.redact(e.toString());
    }

    /** The version, from a resource the build writes. */
    static final class Version implements CommandLine.IVersionProvider {

        /** @return the version of this build, such as {@code 0.1.0} */
        static String current() {
            Properties p = new Properties();
            try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
                if (in == null) {
                    return "(unknown version)";
                }
                p.load(in);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return p.getProperty("version", "(unknown version)");
        }

        @Override
        public String[] getVersion() {
            return new String[] {"locksmith " + current()};
        }
    }
}
