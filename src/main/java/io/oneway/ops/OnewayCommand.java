package io.oneway.ops;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import javax.sql.DataSource;

import org.apache.camel.util.URISupport;

import io.oneway.ops.Verifier.TableResult;
import io.oneway.support.SqlScript;

/**
 * Operator commands, run as {@code ./oneway COMMAND [ARGS] [--profile NAME]} from the Oneway
 * folder with the same settings as the replicator. Exit status: 0 done, 1 refused or different,
 * 2 wrong usage.
 */
public final class OnewayCommand {

    private static final String USAGE = String.join(System.lineSeparator(),
            "usage: oneway COMMAND [ARGS] [--profile remote|central]   (bin/oneway in a distribution, ./oneway in a checkout)",
            "  status                        where each side stands: positions, backlog, lag, what stops replication",
            "                                (with --profile, only that side)",
            "  verify [TABLE ...]            compare replicated tables between remote and central",
            "  verify --repair [TABLE ...]   reload the buckets verify finds different through the log, wait, verify again",
            "  snapshot TABLE [WHERE COND]   copy a captured table's rows (those matching COND) to the central database through",
            "                                the log, live (remote; with WHERE as the install user, the table's owner)",
            "  onboard [--reference] TABLE ...",
            "                                switch capture on and snapshot each table, a transaction each (remote, as the install user)",
            "  cancel-snapshot TABLE         stop a running snapshot; rows not reloaded yet stay as they are (remote)",
            "  block-change LOG_ID [REASON]  block one change-log record (remote)",
            "  block TABLE KEY_JSON [REASON] block every unsent change of an object, e.g. block shop.orders '{\"id\": 7}'",
            "  unblock-change LOG_ID         unblock one record; the transfer resumes by itself",
            "  unblock TABLE KEY_JSON        unblock an object",
            "  resume SOURCE                 apply a halted source again (central), once the cause is fixed",
            "  skip SOURCE POSITION          skip the change a source halted at, record it (state S), and resume",
            "  resume-transfer               go on after a digest mismatch, once the central rows are repaired (remote)",
            "  clear-alarms                  close the open alarms (integrity, rows the central copy lacks), once looked into (remote)",
            "  install remote|central        install or upgrade Oneway's SQL on that side's database, in one transaction,",
            "                                as oneway.install.user (password: ONEWAY_INSTALL_PASSWORD)",
            "  create-broker DIR [OPTIONS]   create a standalone Artemis broker instance (create-broker --help)");

    private OnewayCommand() {
    }

    public static void main(String[] args) {
        List<String> rest = new ArrayList<>(Arrays.asList(args));
        String profile = null;
        int p = rest.indexOf("--profile");
        if (p >= 0 && p + 1 < rest.size()) {
            profile = rest.get(p + 1);
            rest.subList(p, p + 2).clear();
        }
        if (rest.isEmpty() || List.of("help", "-h", "--help").contains(rest.get(0))) {
            System.err.println(USAGE);
            System.exit(rest.isEmpty() ? 2 : 0);
        }
        String command = rest.remove(0);
        try {
            if (command.equals("create-broker")) {
                System.exit(BrokerInstance.create(rest));
            }
            Settings settings = Settings.load(Path.of(""), profile);
            System.exit(run(settings, command, rest));
        } catch (SQLException | IllegalStateException e) {
            System.err.println("refused: " + e.getMessage());
            System.exit(1);
        } catch (IndexOutOfBoundsException e) {
            System.err.println(command + ": an argument is missing" + System.lineSeparator() + USAGE);
            System.exit(2);
        } catch (IllegalArgumentException e) {
            System.err.println((e.getMessage() == null || e.getMessage().equals(command) ? "unknown command " + command : e.getMessage())
                    + System.lineSeparator() + USAGE);
            System.exit(2);
        }
    }

    public static int run(Settings settings, String command, List<String> a) throws SQLException {
        return switch (command) {
            case "status" -> status(settings);
            case "verify" -> verify(settings, a.stream().filter(t -> !t.equals("--repair")).toList(), a.contains("--repair"));
            case "snapshot" -> snapshot(settings, a);
            case "onboard" -> onboard(settings, a);
            case "cancel-snapshot" -> call(settings.dataSource("remote"), "remote/queries/cancel-snapshot.sql", a.get(0));
            case "block-change" -> call(settings.dataSource("remote"), "remote/queries/block-change.sql", Long.parseLong(a.get(0)), optional(a, 1));
            case "block" -> call(settings.dataSource("remote"), "remote/queries/block-object.sql", a.get(0), a.get(1), optional(a, 2));
            case "unblock-change" -> call(settings.dataSource("remote"), "remote/queries/unblock-change.sql", Long.parseLong(a.get(0)));
            case "unblock" -> call(settings.dataSource("remote"), "remote/queries/unblock-object.sql", a.get(0), a.get(1));
            case "resume" -> update(settings.dataSource("central"), "central/queries/resume-source.sql",
                    "source " + a.get(0) + " is not halted", a.get(0));
            case "skip" -> skip(settings.dataSource("central"), a.get(0), Long.parseLong(a.get(1)));
            case "resume-transfer" -> call(settings.dataSource("remote"), "remote/queries/resume-transfer.sql");
            case "clear-alarms" -> call(settings.dataSource("remote"), "remote/queries/clear-alarms.sql");
            case "install" -> install(settings, a.get(0));
            default -> throw new IllegalArgumentException(command);
        };
    }

    /** @return 0, or 1 when a database could not be read (so that a script or a probe notices) */
    private static int status(Settings settings) {
        boolean read = true;
        if (settings.sides().contains("remote")) {
            read &= print("remote", settings, "remote", "remote/queries/read-status.sql");
            read &= print("remote: what stops the transfer", settings, "remote", "remote/queries/read-transfer-status.sql");
            read &= print("remote: the replicator's last check (stalls, backlog, lag)", settings, "remote", "shared/queries/read-monitor-state.sql");
            read &= print("remote: snapshots (running, and ended in the last day)", settings, "remote", "remote/queries/read-snapshots.sql");
        }
        if (settings.sides().contains("central")) {
            read &= print("central", settings, "central", "central/queries/read-status.sql");
            read &= print("central: the replicator's last check (stalls, backlog, lag)", settings, "central", "shared/queries/read-monitor-state.sql");
            read &= print("central: snapshots being applied", settings, "central", "central/queries/read-snapshot-status.sql");
        }
        return read ? 0 : 1;
    }

    private static int install(Settings settings, String side) {
        SchemaInstaller.Part part = switch (side) {
            case "remote" -> SchemaInstaller.Part.REMOTE;
            case "central" -> SchemaInstaller.Part.CENTRAL;
            default -> throw new IllegalArgumentException("install what? remote or central, not " + side);
        };
        SchemaInstaller.install(settings.installDataSource(side), part);
        // a URL may carry the password (?password=, user:password@): it is not printed
        System.out.println("done: Oneway's " + side + " SQL is installed on " + URISupport.sanitizeUri(settings.get("oneway." + side + ".jdbc-url")));
        return 0;
    }

    /**
     * verify, and with {@code repair} (verify --repair): each table that differs has the buckets
     * that differ reloaded through the log (a snapshot of those buckets), and is verified again
     * once the central database applied everything captured by the time the snapshot ended.
     */
    private static int verify(Settings settings, List<String> tables, boolean repair) throws SQLException {
        List<String> names = tables.isEmpty() ? Arrays.stream(settings.get("oneway.apply.tables").split(",")).map(String::trim).toList() : tables;
        Verifier verifier = new Verifier(settings.dataSource("remote"), settings.dataSource("central"), 10);
        verifier.encodingNote().ifPresent(System.out::println);
        boolean equal = true;
        for (String table : names) {
            TableResult r = verifier.verify(table);
            System.out.println(r);
            if (repair && !r.equal()) {
                call(settings.dataSource("remote"), "remote/queries/start-snapshot.sql", table, Verifier.BUCKETS,
                        r.differingBuckets().toArray(Integer[]::new), settings.number("oneway.snapshot.chunk-rows"),
                        settings.number("oneway.snapshot.chunk-bytes"), null);
                System.out.println("repair: reloading buckets " + r.differingBuckets() + " of " + Verifier.BUCKETS + " of " + table);
                new RepairWait(settings, table).await();
                r = verifier.verify(table);
                System.out.println(r);
            }
            equal &= r.equal();
        }
        System.out.println(equal ? "verify: all tables equal" : "verify: DIFFERENCES found (changes still in flight show up here too)");
        return equal ? 0 : 1;
    }

    /**
     * snapshot TABLE [WHERE CONDITION]: with a condition, as the install user (the condition is SQL
     * run with the snapshot's rights, so only the table's owner may give one).
     */
    private static int snapshot(Settings settings, List<String> a) throws SQLException {
        String table = a.get(0);
        if (a.size() == 1) {
            return call(settings.dataSource("remote"), "remote/queries/start-snapshot.sql", table, null, null,
                    settings.number("oneway.snapshot.chunk-rows"), settings.number("oneway.snapshot.chunk-bytes"), null);
        }
        if (!a.get(1).equalsIgnoreCase("where") || a.size() < 3) {
            throw new IllegalArgumentException("snapshot TABLE [WHERE CONDITION], e.g. snapshot shop.orders where \"created_at > now() - interval '7 days'\"");
        }
        return call(settings.installDataSource("remote"), "remote/queries/start-snapshot.sql", table, null, null,
                settings.number("oneway.snapshot.chunk-rows"), settings.number("oneway.snapshot.chunk-bytes"),
                String.join(" ", a.subList(2, a.size())));
    }

    /** onboard [--reference] TABLE ...: each table's capture switched on and its snapshot started, a transaction per table. */
    private static int onboard(Settings settings, List<String> a) throws SQLException {
        String mode = a.contains("--reference") ? "reference" : "image";
        List<String> tables = a.stream().filter(t -> !t.equals("--reference")).toList();
        if (tables.isEmpty()) {
            throw new IndexOutOfBoundsException("no table");
        }
        for (String table : tables) {
            call(settings.installDataSource("remote"), "remote/queries/onboard.sql", table, mode, settings.number("oneway.snapshot.chunk-rows"),
                    settings.number("oneway.snapshot.chunk-bytes"));
        }
        return 0;
    }

    private static int skip(DataSource central, String source, long position) throws SQLException {
        int refused = update(central, "central/queries/skip-change.sql", "source " + source + " is not halted at position " + position
                + " (only the change a source halted at can be skipped; see ./oneway status)", source, position);
        if (refused != 0) {
            return refused;
        }
        return update(central, "central/queries/resume-source.sql", "source " + source + " is not halted", source);
    }

    private static int call(DataSource ds, String script, Object... args) throws SQLException {
        try (Connection c = ds.getConnection(); PreparedStatement ps = prepare(c, script, args); ResultSet rs = ps.executeQuery()) {
            rs.next();
            System.out.println("done: " + rs.getObject(1));
            return 0;
        }
    }

    private static int update(DataSource ds, String script, String whenNothing, Object... args) throws SQLException {
        try (Connection c = ds.getConnection(); PreparedStatement ps = prepare(c, script, args)) {
            if (ps.executeUpdate() == 0) {
                System.err.println("refused: " + whenNothing);
                return 1;
            }
            System.out.println("done");
            return 0;
        }
    }

    /** @return whether it could be read */
    private static boolean print(String title, Settings settings, String side, String script) {
        System.out.println("== " + title);
        try (Connection c = settings.dataSource(side).getConnection(); PreparedStatement ps = prepare(c, script); ResultSet rs = ps.executeQuery()) {
            ResultSetMetaData md = rs.getMetaData();
            boolean any = false;
            while (rs.next()) {
                any = true;
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    if (rs.getObject(i) != null) {
                        System.out.printf("  %-20s %s%n", md.getColumnLabel(i), rs.getObject(i));
                    }
                }
                System.out.println();
            }
            if (!any) {
                System.out.println("  (nothing)");
            }
            return true;
        } catch (SQLException e) {
            System.out.println("  not reachable with the " + side + " settings: " + e.getMessage());
            return false;
        }
    }

    static PreparedStatement prepare(Connection c, String script, Object... args) throws SQLException {
        PreparedStatement ps = c.prepareStatement(SqlScript.load(script));
        for (int i = 0; i < args.length; i++) {
            if (args[i] instanceof Integer[] values) {
                ps.setArray(i + 1, c.createArrayOf("int4", values));
            } else {
                ps.setObject(i + 1, args[i]);
            }
        }
        return ps;
    }

    private static String optional(List<String> a, int i) {
        return a.size() > i ? a.get(i) : null;
    }
}
