package io.oneway.apply;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.oneway.support.SqlScript;
import io.oneway.wire.ChangeRecord;

/**
 * Applies a schema change of a replicated table (op S, logged by the remote's event trigger,
 * sql/remote/09-schema.sql) in the apply transaction, at its position between the data changes:
 * the actions the policy allows are carried out, then the central table must match the remote's
 * columns and key as the change describes them; otherwise the source halts at that change with
 * the statement shown, and a resume (once an operator made the tables match) checks again.
 * <p>
 * Policies ({@code oneway.apply.schema-changes}): {@code additive} (default) adds columns with
 * a constant default or none, sets and drops defaults and NOT NULL, and widens types;
 * {@code all} also drops and renames columns, changes types and the key; {@code none} applies
 * nothing. Renaming or dropping a table, and generated or identity columns added, always need
 * an operator. Index changes are not needed for the data and are only logged.
 */
public final class SchemaChanges {

    /** The policy names of {@code oneway.apply.schema-changes}. */
    public enum Policy {
        NONE, ADDITIVE, ALL
    }

    private static final Logger LOG = LoggerFactory.getLogger(SchemaChanges.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** A type as SQL writes it, before it is checked by the catalogue: a name, a typmod, array brackets. */
    private static final Pattern TYPE = Pattern.compile("[A-Za-z_][A-Za-z0-9_ .\"]*(\\(\\d+(,\\d+)?\\))?(\\[\\])*");
    /** A default that is a constant: NULL, true, false, a number or a string literal, with an optional cast. */
    private static final Pattern CONSTANT = Pattern.compile(
            "(NULL|true|false|-?\\d+(\\.\\d+)?|'(?:[^']|'')*')(::[a-z][a-z0-9_ ]*(\\(\\d+(,\\d+)?\\))?(\\[\\])?)?");
    private static final Pattern TYPE_WITH_LENGTH = Pattern.compile("(character varying|bit varying|numeric|character)\\((\\d+)(,(\\d+))?\\)");
    private static final List<String> INTEGERS = List.of("smallint", "integer", "bigint", "numeric");

    private final TableCatalog catalog;
    private final Policy policy;

    public SchemaChanges(TableCatalog catalog, String policy) {
        this.catalog = catalog;
        try {
            this.policy = Policy.valueOf(policy.trim().toUpperCase());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("oneway.apply.schema-changes must be additive, all or none, not '" + policy + "'");
        }
    }

    /** Applies the change in the transaction of {@code c}, or halts at it. */
    public void apply(Connection c, ChangeRecord change) throws SQLException, ApplyHaltException {
        JsonNode ddl;
        try {
            ddl = JSON.readTree(change.row());
        } catch (IOException | RuntimeException e) {
            throw new ApplyHaltException(change, "the schema change is not readable: " + e.getMessage());
        }
        String statement = ddl.path("statement").asText();
        List<String> needOperator = new ArrayList<>();
        for (JsonNode action : ddl.path("actions")) {
            String kind = action.path("action").asText();
            if ("index".equals(kind)) {
                LOG.info("Source table {}: an index changed on the remote ({}); indexes are not replicated", change.table(),
                        action.path("definition").asText());
                continue;
            }
            if ("drop_table".equals(kind) || "rename_table".equals(kind)) {
                throw new ApplyHaltException(change, "schema change `" + statement + "`: " + ("drop_table".equals(kind) ? "the table was dropped"
                        : "the table was renamed to " + action.path("to").asText()) + " on the remote. Do the same on the central database, "
                        + "change oneway.apply.tables and the central replicator's settings as needed, then ./oneway skip this position");
            }
            String ddlStatement = ddlFor(c, change, action);
            if (ddlStatement == null) {
                needOperator.add(describe(action));
                continue;
            }
            try (Statement s = c.createStatement()) {
                s.execute(ddlStatement);
            } catch (SQLException e) {
                if (!ChangeApplier.isPermanent(e)) {
                    throw e;
                }
                throw new ApplyHaltException(change, "schema change `" + statement + "` could not be applied here (" + ddlStatement + ": "
                        + e.getMessage() + "). Apply it on the central database by hand, then ./oneway resume");
            }
            LOG.info("Source table {}: schema change applied: {}", change.table(), ddlStatement);
        }
        catalog.forget();
        List<String> differences = differences(c, change, ddl);
        if (!differences.isEmpty()) {
            throw new ApplyHaltException(change, "schema change `" + statement + "` of " + change.table() + " on the remote"
                    + (needOperator.isEmpty() ? "" : " (" + String.join("; ", needOperator) + ": not applied by policy " + policy.name().toLowerCase() + ")")
                    + "; the central table differs: " + String.join("; ", differences)
                    + ". Make it match on the central database, then ./oneway resume");
        }
    }

    /** The DDL that carries out an action here, or null when the policy leaves it to an operator. */
    private String ddlFor(Connection c, ChangeRecord change, JsonNode action) throws SQLException, ApplyHaltException {
        if (policy == Policy.NONE) {
            return null;
        }
        String table = catalog.quotedName(c, change);
        String column = TableCatalog.quote(action.path("column").asText());
        String alter = "alter table " + table + " ";
        switch (action.path("action").asText()) {
            case "add_column" -> {
                JsonNode d = action.path("definition");
                String type = checkedType(c, d.path("type").asText());
                String dflt = d.path("default").isNull() ? null : d.path("default").asText();
                if (type == null || !d.path("generated").isNull() || !d.path("identity").asText().isEmpty()
                        || dflt != null && !CONSTANT.matcher(dflt).matches()) {
                    return null;
                }
                return alter + "add column " + column + " " + type + (dflt == null ? "" : " default " + dflt)
                        + (d.path("not_null").asBoolean() ? " not null" : "");
            }
            case "set_default" -> {
                String dflt = action.path("default").asText();
                return CONSTANT.matcher(dflt).matches() ? alter + "alter column " + column + " set default " + dflt : null;
            }
            case "drop_default" -> {
                return alter + "alter column " + column + " drop default";
            }
            case "set_not_null", "drop_not_null" -> {
                return alter + "alter column " + column + ("set_not_null".equals(action.path("action").asText()) ? " set not null" : " drop not null");
            }
            case "alter_type" -> {
                String type = checkedType(c, action.path("type").asText());
                boolean allowed = policy == Policy.ALL || widens(action.path("from").asText(), action.path("type").asText());
                return type != null && allowed ? alter + "alter column " + column + " type " + type : null;
            }
            case "drop_column" -> {
                return policy == Policy.ALL ? alter + "drop column " + column : null;
            }
            case "rename_column" -> {
                return policy == Policy.ALL ? alter + "rename column " + TableCatalog.quote(action.path("from").asText()) + " to " + column : null;
            }
            default -> {
                return null;
            }
        }
    }

    /** A type name the remote's catalogue wrote, checked by this catalogue (which parses it strictly), or null. */
    private static String checkedType(Connection c, String type) throws SQLException {
        if (!TYPE.matcher(type).matches()) {
            return null;
        }
        try (PreparedStatement ps = c.prepareStatement("select to_regtype(?) is not null")) {
            ps.setString(1, type);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1) ? type : null;
            }
        } catch (SQLException e) {
            if ("42601".equals(e.getSQLState()) || "22P02".equals(e.getSQLState())) {
                return null;
            }
            throw e;
        }
    }

    /** Whether a type change keeps every value: a longer length or precision, a wider integer, real to double. */
    static boolean widens(String from, String to) {
        int f = INTEGERS.indexOf(from);
        int t = INTEGERS.indexOf(to);
        if (from.equals(to) || f >= 0 && f < INTEGERS.size() - 1 && t > f || "real".equals(from) && "double precision".equals(to)) {
            return true;
        }
        if ("text".equals(to) || "character varying".equals(to)) {
            return from.startsWith("character varying") || "text".equals(to) && "text".equals(from);
        }
        if ("numeric".equals(to)) {
            return from.startsWith("numeric(");
        }
        Matcher a = TYPE_WITH_LENGTH.matcher(from);
        Matcher b = TYPE_WITH_LENGTH.matcher(to);
        return a.matches() && b.matches() && a.group(1).equals(b.group(1)) && !"character".equals(a.group(1))
                && Integer.parseInt(b.group(2)) >= Integer.parseInt(a.group(2)) && Objects.equals(a.group(4), b.group(4));
    }

    /** How the central table differs from the remote's as the change describes it: columns, types, generated, key. */
    private List<String> differences(Connection c, ChangeRecord change, JsonNode ddl) throws SQLException, ApplyHaltException {
        String table = catalog.quotedName(c, change);
        Map<String, JsonNode> here = new LinkedHashMap<>();
        JsonNode hereKey;
        try (PreparedStatement ps = c.prepareStatement(SqlScript.load("central/queries/read-table-shape.sql"))) {
            ps.setString(1, table);
            ps.setString(2, table);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                JSON.readTree(rs.getString(1)).forEach(col -> here.put(col.path("name").asText(), col));
                hereKey = JSON.readTree(rs.getString(2));
            }
        } catch (IOException e) {
            throw new SQLException("cannot read the central table's columns: " + e.getMessage(), "XX000", e);
        }
        List<String> out = new ArrayList<>();
        Map<String, JsonNode> there = new LinkedHashMap<>();
        ddl.path("columns").forEach(col -> there.put(col.path("name").asText(), col));
        there.forEach((name, col) -> {
            JsonNode mine = here.get(name);
            if (mine == null) {
                out.add("column " + name + " " + col.path("type").asText() + " is missing here");
            } else if (!mine.path("type").asText().equals(col.path("type").asText())) {
                out.add("column " + name + " is " + mine.path("type").asText() + " here, " + col.path("type").asText() + " on the remote");
            } else if (mine.path("generated").isNull() != col.path("generated").isNull()) {
                out.add("column " + name + " is " + (col.path("generated").isNull() ? "" : "not ") + "generated here, "
                        + (col.path("generated").isNull() ? "not " : "") + "on the remote (a generated column must be generated on both sides)");
            }
        });
        here.keySet().stream().filter(name -> !there.containsKey(name))
                .forEach(name -> out.add("column " + name + " is here but no longer on the remote"));
        if (!Objects.equals(hereKey, ddl.path("key"))) {
            out.add("the primary key is " + hereKey + " here, " + ddl.path("key") + " on the remote");
        }
        return out;
    }

    private static String describe(JsonNode action) {
        return action.path("action").asText().replace('_', ' ') + (action.has("column") ? " " + action.path("column").asText() : "");
    }
}
