package io.oneway.main;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import org.apache.activemq.artemis.core.config.impl.SecurityConfiguration;
import org.apache.activemq.artemis.spi.core.security.ActiveMQJAASSecurityManager;
import org.apache.activemq.artemis.spi.core.security.jaas.InVMLoginModule;

/**
 * Broker users and roles, read from Artemis' own file formats (artemis-users.properties:
 * {@code user = password}; artemis-roles.properties: {@code role = user,user}), so the same
 * files serve the embedded broker and a standalone one.
 */
public final class BrokerUsers {

    private final SecurityConfiguration configuration = new SecurityConfiguration();

    private BrokerUsers() {
    }

    public static BrokerUsers load(Path usersFile, Path rolesFile) {
        BrokerUsers b = new BrokerUsers();
        read(usersFile).forEach((user, password) -> b.configuration.addUser((String) user, (String) password));
        read(rolesFile).forEach((role, members) -> {
            for (String user : ((String) members).split(",")) {
                if (!user.isBlank()) {
                    b.configuration.addRole(user.trim(), (String) role);
                }
            }
        });
        return b;
    }

    ActiveMQJAASSecurityManager securityManager() {
        return new ActiveMQJAASSecurityManager(InVMLoginModule.class.getName(), configuration);
    }

    private static Properties read(Path file) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read broker users or roles from " + file, e);
        }
        return p;
    }
}
