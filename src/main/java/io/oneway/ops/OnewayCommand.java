package io.oneway.ops;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.oneway.ops.Verifier.TableResult;

/**
 * Operator commands, run as {@code ./oneway COMMAND [--profile NAME]} from the Oneway folder,
 * with the same settings as the replicator:
 * <ul>
 * <li>{@code verify [table ...]}: compare the replicated tables (default: oneway.apply.tables)
 * between the remote and the central database; exit status 1 when they differ.</li>
 * </ul>
 */
public final class OnewayCommand {

    private OnewayCommand() {
    }

    public static void main(String[] args) throws Exception {
        List<String> rest = new ArrayList<>(Arrays.asList(args));
        String profile = null;
        int p = rest.indexOf("--profile");
        if (p >= 0 && p + 1 < rest.size()) {
            profile = rest.get(p + 1);
            rest.subList(p, p + 2).clear();
        }
        if (rest.isEmpty()) {
            usage();
            System.exit(2);
        }
        Settings settings = Settings.load(Path.of(""), profile);
        String command = rest.remove(0);
        int status = switch (command) {
            case "verify" -> verify(settings, rest);
            default -> {
                usage();
                yield 2;
            }
        };
        System.exit(status);
    }

    static int verify(Settings settings, List<String> tables) throws Exception {
        List<String> names = tables.isEmpty() ? Arrays.stream(settings.get("oneway.apply.tables").split(",")).map(String::trim).toList() : tables;
        Verifier verifier = new Verifier(settings.dataSource("remote"), settings.dataSource("central"), 10);
        boolean equal = true;
        for (String table : names) {
            TableResult r = verifier.verify(table);
            System.out.println(r);
            equal &= r.equal();
        }
        System.out.println(equal ? "verify: all tables equal" : "verify: DIFFERENCES found (changes still in flight show up here too)");
        return equal ? 0 : 1;
    }

    private static void usage() {
        System.err.println("usage: ./oneway verify [table ...] [--profile remote|central]");
    }
}
