package io.metaquorum.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PrincipalTest {
    @Test
    void theTextFormIsTypeColonName() {
        assertEquals("User:alice", Principal.user("alice").toString());
        assertEquals("User:ANONYMOUS", Principal.ANONYMOUS.toString());
    }

    @Test
    void parseSplitsAtTheFirstColon() {
        assertEquals(new Principal("User", "alice"), Principal.parse("User:alice"));
        assertEquals(new Principal("User", "CN=a:b,O=c"), Principal.parse("User:CN=a:b,O=c"));
        assertEquals(new Principal("Group", "ops"), Principal.parse("Group:ops"));
        assertEquals(new Principal("User", ""), Principal.parse("User:"), "a mapping rule can give an empty name");
    }

    @Test
    void parseRefusesTextWithoutATypeAndAColon() {
        assertThrows(IllegalArgumentException.class, () -> Principal.parse("alice"));
        assertThrows(IllegalArgumentException.class, () -> Principal.parse(":alice"));
        assertThrows(IllegalArgumentException.class, () -> Principal.parse(""));
        assertThrows(IllegalArgumentException.class, () -> new Principal("Us:er", "alice"));
    }
}
