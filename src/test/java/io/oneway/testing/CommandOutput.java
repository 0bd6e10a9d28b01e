package io.oneway.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.List;

import io.oneway.ops.OnewayCommand;
import io.oneway.ops.Settings;

/** What an ./oneway command prints, run in this JVM; the command must succeed. */
public final class CommandOutput {

    private CommandOutput() {
    }

    public static synchronized String of(Settings settings, String command, String... args) throws SQLException {
        PrintStream out = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            assertEquals(0, OnewayCommand.run(settings, command, List.of(args)));
        } finally {
            System.setOut(out);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }
}
