package io.oneway.ops;

import static io.oneway.testing.Sql.exec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.List;
import java.util.Properties;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

import io.oneway.ops.SchemaInstaller.Part;
import io.oneway.ops.Verifier.TableResult;
import io.oneway.testing.Distribution;
import io.oneway.testing.PostgresFixture;
import io.oneway.testing.PostgresFixture.TestDatabase;

/**
 * verify reads the rows of the buckets that differ a page at a time from both databases, in one key order whatever
 * the characters of the keys and the databases' collations, and stops at the differences it names: before, it held
 * every row of those buckets from both sides in memory, so a table that differed everywhere (a copy never onboarded,
 * a column changed in every row) and was larger than the command's 128 MB heap ended in an OutOfMemoryError.
 */
class VerifyIT {

    private static final int BIG_ROWS = 250_000;

    @Test
    void tables_larger_than_the_commands_heap_that_differ_in_every_row_are_verified_by_bin_oneway() {
        TestDatabase remote = PostgresFixture.newDatabase("verify_big_remote", Part.REMOTE);
        TestDatabase central = PostgresFixture.newDatabase("verify_big_central", Part.CENTRAL);
        String table = "create table big (id int primary key, note text)";
        exec(remote.dataSource(), table);
        exec(central.dataSource(), table);
        // 250,000 rows of 256 characters a side, about 75 MB of text each: twice the command's heap held as Java strings
        exec(remote.dataSource(), "insert into big select i, repeat(md5(i::text), 8) from generate_series(1, " + BIG_ROWS + ") i");
        exec(central.dataSource(), "insert into big select i, upper(repeat(md5(i::text), 8)) from generate_series(1, " + BIG_ROWS + ") i");

        exec(remote.dataSource(), "create table wide (id int primary key, doc text)");
        exec(central.dataSource(), "create table wide (id int primary key, doc text)");
        // 300 rows of 400 kB a side, 120 MB: a page of such rows would be about the whole heap
        exec(remote.dataSource(), "insert into wide select i, repeat(md5(i::text), 12800) from generate_series(1, 300) i");
        exec(central.dataSource(), "insert into wide select i, repeat(md5(i::text), 12800) || '.' from generate_series(1, 300) i");

        Properties p = new Properties();
        p.setProperty("oneway.remote.jdbc-url", remote.jdbcUrl());
        p.setProperty("oneway.central.jdbc-url", central.jdbcUrl());
        Distribution.Result verify = Distribution.built().command(List.of(), Distribution.asOptions(p), "verify", "public.big", "public.wide");

        assertEquals(1, verify.exit(), verify.output());
        assertFalse(verify.output().contains("OutOfMemoryError"), verify.output());
        assertTrue(verify.output().contains("public.big: DIFFERENT (remote 250000 rows, central 250000 rows; first differing keys [{\"id\": \"1\"} "
                + "(differs in note), {\"id\": \"10\"} (differs in note), {\"id\": \"100\"} (differs in note)"), verify.output());
        assertEquals(10, Pattern.compile("\\(differs in note\\)").matcher(verify.output()).results().count(), verify.output());
        assertTrue(verify.output().contains("public.wide: DIFFERENT (remote 300 rows, central 300 rows; first differing keys [{\"id\": \"1\"} "
                + "(differs in doc), {\"id\": \"10\"} (differs in doc)"), verify.output());
        assertEquals(10, Pattern.compile("\\(differs in doc\\)").matcher(verify.output()).results().count(), verify.output());
        assertTrue(verify.output().contains("verify: DIFFERENCES found"), verify.output());
    }

    @Test
    void keys_of_any_characters_are_matched_row_for_row_and_only_the_rows_that_differ_are_named() throws SQLException {
        DataSource remote = PostgresFixture.newDatabase("verify_keys_remote", Part.REMOTE).dataSource();
        // the central database collates by ICU's English rules, the remote one as the test server's databases do (C)
        DataSource central = PostgresFixture.newDatabase("verify_keys_central", "template template0 locale_provider icu icu_locale 'en'",
                Part.CENTRAL).dataSource();
        // 3,000 keys, about 47 to a bucket, starting with characters that C, a linguistic collation and Java's UTF-16 order
        // each sort differently: capitals, an accent, a space, a newline, U+FF5A (above the surrogates) and U+1F600 (beyond
        // the BMP); the remote's key column collates as C, the central one's as its database does
        String keys = "select chr((array[97, 66, 233, 65370, 128512, 32, 65, 90, 101, 10])[1 + i % 10]) || i, 'v' || i "
                + "from generate_series(1, 3000) i";
        exec(remote, "create table keyed (k text collate \"C\" primary key, v text)");
        exec(central, "create table keyed (k text primary key, v text)");
        exec(remote, "insert into keyed " + keys);
        exec(central, "insert into keyed " + keys);
        exec(central, "update keyed set v = 'changed' where k in ('ｚ3', ' 5')");
        exec(central, "delete from keyed where k = '😀4'");
        exec(central, "insert into keyed values ('é2x', 'central only')");

        TableResult r = new Verifier(remote, central, 10).verify("public.keyed");

        assertEquals(List.of("{\"k\": \" 5\"} (differs in v)", "{\"k\": \"é2x\"} (only on central)", "{\"k\": \"ｚ3\"} (differs in v)",
                "{\"k\": \"😀4\"} (missing on central)"), r.differingKeys(), r.toString());
        assertEquals(3000, r.remoteRows());
        assertEquals(3000, r.centralRows());
        assertTrue(r.differingBuckets().size() <= 4, "only the buckets of the 4 keys differ: " + r.differingBuckets());

        exec(central, "update keyed set v = 'v' || substr(k, 2) where k in ('ｚ3', ' 5')");
        exec(central, "insert into keyed values ('😀4', 'v4')");
        exec(central, "delete from keyed where k = 'é2x'");
        TableResult mended = new Verifier(remote, central, 10).verify("public.keyed");
        assertTrue(mended.equal(), "equal tables on databases that collate differently are equal: " + mended);
    }

    @Test
    void databases_of_different_encodings_compare_their_rows_by_their_utf8_text_and_say_what_their_buckets_cannot() throws SQLException {
        DataSource remote = PostgresFixture.newDatabase("verify_latin1_remote", "template template0 encoding 'LATIN1' lc_collate 'C' lc_ctype 'C'",
                Part.REMOTE).dataSource();
        DataSource central = PostgresFixture.newDatabase("verify_utf8_central", Part.CENTRAL).dataSource();
        for (DataSource db : List.of(remote, central)) {
            exec(db, "create table accents (id int primary key, v text)");
            exec(db, "insert into accents select i, 'café ' || i || ' naïve' from generate_series(1, 500) i");
        }
        Verifier verifier = new Verifier(remote, central, 10);

        TableResult r = verifier.verify("public.accents");

        assertTrue(r.equal(), "text outside ASCII under integer keys, in LATIN1 on one side and UTF8 on the other: " + r);
        assertTrue(verifier.encodingNote().orElseThrow().contains("(remote LATIN1, central UTF8)"), verifier.encodingNote().toString());
        exec(central, "update accents set v = 'café 7 naive' where id = 7");
        assertEquals(List.of("{\"id\": \"7\"} (differs in v)"), verifier.verify("public.accents").differingKeys());
    }
}
