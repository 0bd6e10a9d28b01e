package io.oneway.main;

import java.nio.file.Path;

import org.apache.activemq.artemis.core.config.impl.SecurityConfiguration;
import org.apache.activemq.artemis.spi.core.security.ActiveMQJAASSecurityManager;
import org.apache.activemq.artemis.spi.core.security.jaas.InVMLoginModule;

import io.oneway.support.PropertiesFile;

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
        PropertiesFile.read(usersFile).forEach((user, password) -> b.configuration.addUser((String) user, (String) password));
        PropertiesFile.read(rolesFile).forEach((role, members) -> {
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
}
