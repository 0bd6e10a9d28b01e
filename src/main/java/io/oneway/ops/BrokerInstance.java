package io.oneway.ops;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.oneway.support.PropertiesFile;

/**
 * {@code bin/oneway create-broker}: a standalone Artemis broker instance for Oneway in one step:
 * {@code artemis create} from the Artemis distribution, then the project's addresses, security
 * and settings (artemis-config/broker.xml) as its broker.xml, the project's users (passwords
 * hashed) and roles added to the administrator's, and for store and forward a core bridge per
 * forwarded queue.
 */
public final class BrokerInstance {

    static final String USAGE = String.join(System.lineSeparator(),
            "usage: bin/oneway create-broker DIR [OPTIONS]",
            "  --name NAME               broker name (default: the folder's name)",
            "  --host HOST               address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)",
            "  --port PORT               port of its one acceptor, core and AMQP (default 61616)",
            "  --console-port PORT       web console on 127.0.0.1 (default 8161; 0 for none)",
            "  --forward QUEUE=URL       store and forward: a core bridge moves what arrives in QUEUE to the same",
            "                            address on the broker at URL (tcp://HOST:PORT); repeat per queue",
            "  --bridge-user USER        the user the bridges log in as on the other broker (password: ONEWAY_BRIDGE_PASSWORD)",
            "  --memory SIZE             broker heap (default 1G)",
            "  --artemis DIR             the Artemis distribution (default: ARTEMIS_HOME, else downloaded once)",
            "  --config FILE             broker.xml to start from (default artemis-config/broker.xml)",
            "  --users FILE, --roles FILE  users (user = password) and roles to add (default artemis-config/artemis-*.properties)",
            "The administrator 'admin' (full rights and management, console login) gets ARTEMIS_ADMIN_PASSWORD.");

    private static final Pattern RESULT = Pattern.compile("result: (\\S+)");

    private BrokerInstance() {
    }

    /** @return the exit status: 0 created, 2 wrong usage (failures throw) */
    public static int create(List<String> args) {
        Options o;
        try {
            o = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage() + System.lineSeparator() + USAGE);
            return 2;
        }
        if (o == null) {
            System.out.println(USAGE);
            return 0;
        }
        String adminPassword = required("ARTEMIS_ADMIN_PASSWORD", "the password of the broker's administrator");
        String bridgePassword = o.forwards.isEmpty() ? null : required("ONEWAY_BRIDGE_PASSWORD", "the password the bridges log in with");
        if (!o.forwards.isEmpty() && o.bridgeUser == null) {
            throw new IllegalArgumentException("--forward needs --bridge-user");
        }
        if (Files.exists(o.dir.resolve("etc/broker.xml"))) {
            throw new IllegalStateException(o.dir + " already holds a broker instance; choose another folder or delete it");
        }
        Path artemis = ArtemisDistribution.locate(o.artemis);
        List<String> create = new ArrayList<>(List.of(artemis.resolve("bin/artemis").toString(), "create", o.dir.toString(),
                "--user", "admin", "--password", adminPassword, "--require-login", "--no-autotune", "--silent", "--nio",
                "--name", o.name, "--java-memory", o.memory, "--http-host", "127.0.0.1"));
        create.addAll(o.consolePort == 0 ? List.of("--no-web") : List.of("--http-port", Integer.toString(o.consolePort)));
        run(artemis, create);
        initialHeap(o.dir.resolve("etc/artemis.profile"), o.memory);

        Path brokerXml = o.dir.resolve("etc/broker.xml");
        BrokerConfig.read(o.config).standalone(o.name, o.host, o.port).forward(o.forwards, o.bridgeUser, bridgePassword).write(brokerXml);
        // it holds the bridges' password (Artemis' reversible masking is deprecated and only obscures it)
        ownerOnly(brokerXml);
        addUsers(artemis, o.users, o.dir.resolve("etc/artemis-users.properties"));
        append(o.roles, o.dir.resolve("etc/artemis-roles.properties"));

        System.out.printf("created broker %s in %s%n", o.name, o.dir);
        System.out.printf("  start it:       %s run   (or artemis-service start)%n", o.dir.resolve("bin/artemis"));
        System.out.printf("  replicators:    oneway.broker.url = tcp://%s:%d, with their own user and password%n",
                o.host.equals("0.0.0.0") ? "THIS-HOST" : o.host, o.port);
        if (o.consolePort != 0) {
            System.out.printf("  console:        http://127.0.0.1:%d/console (user admin)%n", o.consolePort);
        }
        o.forwards.forEach(f -> System.out.printf("  forwards:       %s to %s, as %s%n", f.queue(), f.url(), o.bridgeUser));
        return 0;
    }

    /** artemis create sets only the maximum heap; its fixed -Xms512M would exceed a smaller one, so the JVM would not start. */
    private static void initialHeap(Path profile, String memory) {
        try {
            String text = Files.readString(profile, StandardCharsets.UTF_8);
            Files.writeString(profile, text.replaceAll("-Xms\\S+", Matcher.quoteReplacement("-Xms" + memory)), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot set the heap in " + profile, e);
        }
    }

    private static String required(String variable, String what) {
        String value = System.getenv(variable);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("set " + variable + " to " + what);
        }
        return value;
    }

    /** The project's users, each password hashed as Artemis checks it (ENC(...)), added to the instance's. */
    private static void addUsers(Path artemis, Path users, Path into) {
        Properties p = PropertiesFile.read(users);
        StringBuilder out = new StringBuilder(System.lineSeparator() + "# Oneway's users, from " + users + System.lineSeparator());
        for (String user : p.stringPropertyNames().stream().sorted().toList()) {
            String password = p.getProperty(user);
            if (password.startsWith("DEMO-ONLY")) {
                System.out.println("WARNING: user " + user + " has a demo password from " + users + "; replace it before real use");
            }
            out.append(user).append(" = ENC(").append(hash(artemis, password)).append(')').append(System.lineSeparator());
        }
        write(into, out.toString());
    }

    private static void append(Path roles, Path into) {
        try {
            write(into, System.lineSeparator() + "# Oneway's roles, from " + roles + System.lineSeparator() + Files.readString(roles));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + roles, e);
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static void ownerOnly(Path file) {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (IOException | UnsupportedOperationException e) {
            System.out.println("WARNING: cannot make " + file + " readable by its owner only: " + e.getMessage());
        }
    }

    /** Artemis' own one-way hash of a login password, as its login module checks it. */
    private static String hash(Path artemis, String password) {
        Matcher m = RESULT.matcher(run(artemis, List.of(artemis.resolve("bin/artemis").toString(), "mask", "--hash", password)));
        if (!m.find()) {
            throw new IllegalStateException("artemis mask gave no result");
        }
        return m.group(1);
    }

    private static String run(Path artemis, List<String> command) {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putIfAbsent("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().put("ARTEMIS_HOME", artemis.toString());
        try {
            Process p = pb.start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                throw new IllegalStateException("artemis " + command.get(1) + " failed:" + System.lineSeparator() + output);
            }
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command.get(0), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private record Options(Path dir, String name, String host, int port, int consolePort, List<BrokerConfig.Forward> forwards,
            String bridgeUser, String memory, String artemis, Path config, Path users, Path roles) {

        /** @return null when help was asked for */
        static Options parse(List<String> args) {
            if (args.isEmpty()) {
                throw new IllegalArgumentException("create-broker needs a folder");
            }
            if (args.contains("--help") || args.contains("-h")) {
                return null;
            }
            Path dir = Path.of(args.get(0)).toAbsolutePath().normalize();
            String name = dir.getFileName().toString();
            String host = "127.0.0.1";
            int port = 61616;
            int consolePort = 8161;
            List<BrokerConfig.Forward> forwards = new ArrayList<>();
            String bridgeUser = null;
            String memory = "1G";
            String artemis = null;
            Path config = Path.of("artemis-config/broker.xml");
            Path users = Path.of("artemis-config/artemis-users.properties");
            Path roles = Path.of("artemis-config/artemis-roles.properties");
            for (int i = 1; i < args.size(); i += 2) {
                String option = args.get(i);
                if (i + 1 >= args.size()) {
                    throw new IllegalArgumentException(option + " needs a value");
                }
                String value = args.get(i + 1);
                switch (option) {
                    case "--name" -> name = value;
                    case "--host" -> host = value;
                    case "--port" -> port = Integer.parseInt(value);
                    case "--console-port" -> consolePort = Integer.parseInt(value);
                    case "--forward" -> forwards.add(BrokerConfig.Forward.parse(value));
                    case "--bridge-user" -> bridgeUser = value;
                    case "--memory" -> memory = value;
                    case "--artemis" -> artemis = value;
                    case "--config" -> config = Path.of(value);
                    case "--users" -> users = Path.of(value);
                    case "--roles" -> roles = Path.of(value);
                    default -> throw new IllegalArgumentException("unknown option " + option);
                }
            }
            return new Options(dir, name, host, port, consolePort, forwards, bridgeUser, memory, artemis, config, users, roles);
        }
    }
}
