package io.locksmith.cli;

import io.locksmith.LockBackendException;
import io.locksmith.LockConfigurationException;
import io.locksmith.LockTimeoutException;
import io.locksmith.spi.Redaction;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code locksmith} command. */
@Command(name = "locksmith", mixinStandardHelpOptions = true, version = "locksmith 0.1.0-SNAPSHOT",
        description = "Distributed locks from the command line.",
        subcommands = {DemoCommand.class, RunCommand.class, StatusCommand.class, BenchCommand.class, TckCommand.class,
                CommandLine.HelpCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done (run: the command's own exit code)", "1:the demo's story did not come out",
                "2:bad arguments", "69:the backend could not be reached", "75:the lock stayed held for the whole wait",
                "76:the lock was lost while the command ran", "78:bad configuration (URI, options, provider)",
                "127:the command to run was not found"})
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
        cli.setExecutionExceptionHandler(Main::failed);
        cli.setParameterExceptionHandler(Main::badArguments);
        return cli.execute(args);
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is needed: demo, run, status, bench, tck");
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
        String message = Redaction.redact(String.valueOf(e.getMessage()));
        if (e instanceof LockTimeoutException) {
            err.println("locksmith: " + message);
            return ExitCodes.LOCK_HELD;
        }
        if (e instanceof LockConfigurationException || e instanceof IllegalArgumentException) {
            err.println("locksmith: " + message);
            return ExitCodes.CONFIG;
        }
        if (e instanceof LockBackendException) {
            err.println("locksmith: " + message);
            return ExitCodes.UNAVAILABLE;
        }
        err.println("locksmith: " + e);
        return ExitCodes.UNAVAILABLE;
    }
}
