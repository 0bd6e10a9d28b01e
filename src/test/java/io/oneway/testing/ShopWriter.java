package io.oneway.testing;

import static io.oneway.testing.Sql.exec;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import javax.sql.DataSource;

/**
 * Writes random business transactions on the shop schema of a remote database, as an
 * application would: new customers (every column type, NULLs, unicode), orders with lines,
 * updates (balance of a customer shared by all writers, so writers conflict), deletes with
 * cascades, key changes, and rolled-back transactions. Each writer owns an id range.
 */
public final class ShopWriter {

    private final DataSource db;
    private final Random random;
    private final List<Long> customers = new ArrayList<>();
    private final List<Long> orders = new ArrayList<>();
    private final long sharedCustomer;
    private long nextId;

    /** A writer whose transactions all update customer 1, like every other writer on that database. */
    public ShopWriter(DataSource db, long idBase, long seed) {
        this(db, idBase, seed, 1);
    }

    public ShopWriter(DataSource db, long idBase, long seed, long sharedCustomer) {
        this.db = db;
        this.nextId = idBase;
        this.random = new Random(seed);
        this.sharedCustomer = sharedCustomer;
    }

    /** Creates the shared customer 1 that writers update. */
    public static void createSharedCustomer(DataSource db) {
        createSharedCustomer(db, 1);
    }

    public static void createSharedCustomer(DataSource db, long id) {
        exec(db, "insert into shop.customers(id, name) values (?, 'shared') on conflict do nothing", id);
    }

    /** Runs transactions until at least {@code changes} row changes were committed; returns the committed change count. */
    public int write(int changes) throws SQLException {
        int committed = 0;
        try (Connection c = db.getConnection()) {
            c.setAutoCommit(false);
            while (committed < changes) {
                List<Long> newCustomers = new ArrayList<>();
                List<Long> newOrders = new ArrayList<>();
                List<Long> gone = new ArrayList<>();
                int made = transaction(c, newCustomers, newOrders, gone);
                if (random.nextInt(12) == 0) {
                    c.rollback();
                } else {
                    c.commit();
                    committed += made;
                    customers.addAll(newCustomers);
                    orders.addAll(newOrders);
                    orders.removeAll(gone);
                }
            }
        }
        return committed;
    }

    private int transaction(Connection c, List<Long> newCustomers, List<Long> newOrders, List<Long> gone) throws SQLException {
        int made = 0;
        if (customers.isEmpty() || random.nextInt(4) == 0) {
            long id = ++nextId;
            exec(c, "insert into shop.customers(id, name, email, balance, tags, photo, prefs, score) values (?, ?, ?, ?::numeric, ?::text[], ?, ?::jsonb, ?)",
                    id, "Kunde " + id + " «ünïcødé» 😀 \"quoted\" ' \\", random.nextBoolean() ? null : "c" + id + "@example.org",
                    (random.nextInt(2_000_000) - 1_000_000) + "." + random.nextInt(10000), random.nextBoolean() ? null : "{\"a,b\",NULL,\"c\"}",
                    random.nextBoolean() ? null : new byte[] {0, (byte) 255, (byte) random.nextInt(256), 10, 13},
                    random.nextBoolean() ? null : "{\"k\": [1, 2.5, null, \"x\"], \"nested\": {\"n\": " + id + "}}",
                    random.nextInt(10) == 0 ? Double.NaN : random.nextDouble() * 1e6);
            newCustomers.add(id);
            made++;
        }
        List<Long> known = new ArrayList<>(customers);
        known.addAll(newCustomers);
        long customer = known.get(random.nextInt(known.size()));
        long order = ++nextId;
        exec(c, "insert into shop.orders(id, customer_id, amount, status) values (?, ?, ?::numeric, 'new')", order, customer,
                random.nextInt(100000) / 100.0 + "");
        int lines = 1 + random.nextInt(3);
        for (int l = 1; l <= lines; l++) {
            exec(c, "insert into shop.order_lines(order_id, line_no, product, qty, attrs) values (?, ?, ?, ?, ?::jsonb)", order, l,
                    "product-" + random.nextInt(50), 1 + random.nextInt(5), random.nextBoolean() ? null : "{\"gift\": true}");
        }
        newOrders.add(order);
        made += 1 + lines;
        exec(c, "update shop.customers set balance = balance + 1, updated_at = now() where id = ?", sharedCustomer);
        made++;
        if (!orders.isEmpty()) {
            long paid = orders.get(random.nextInt(orders.size()));
            exec(c, "update shop.orders set status = 'paid', amount = amount + 0.01 where id = ?", paid);
            made++;
            if (random.nextInt(3) == 0) {
                int deleted = linesOf(c, paid);
                exec(c, "delete from shop.orders where id = ?", paid);
                gone.add(paid);
                made += 1 + deleted;
            }
        }
        if (!customers.isEmpty() && random.nextInt(10) == 0) {
            long old = customers.get(random.nextInt(customers.size()));
            if (old != sharedCustomer && Sql.rows(c, "select 1 from shop.orders where customer_id = ?", old).isEmpty()) {
                long renumbered = ++nextId;
                exec(c, "update shop.customers set id = ? where id = ?", renumbered, old);
                customers.remove(old);
                newCustomers.add(renumbered);
                made++;
            }
        }
        return made;
    }

    private static int linesOf(Connection c, long order) throws SQLException {
        return ((Number) Sql.rows(c, "select count(*) as n from shop.order_lines where order_id = ?", order).get(0).get("n")).intValue();
    }
}
