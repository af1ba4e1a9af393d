package io.metaquorum.security.certs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SubjectAltNameTest {
    @Test
    void parsesDnsNamesAndIpAddressesInEitherCase() {
        assertEquals(List.of(SubjectAltName.dns("localhost"), SubjectAltName.ip("127.0.0.1"),
                        SubjectAltName.dns("*.node.example.com"), SubjectAltName.ip("::1")),
                SubjectAltName.parseList("DNS:localhost, ip:127.0.0.1,dns:*.node.example.com,IP:::1"));
    }

    @Test
    void refusesWhatIsNotANameOrAnAddress() {
        for (String bad : new String[] {"localhost", "URI:http://x", "DNS:", "DNS:bad_name", "DNS:-x.example",
                                        "IP:300.1.1.1", "IP:localhost", "DNS:a..b", "DNS:localhost,"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> SubjectAltName.parseList(bad), bad);
            assertTrue(e.getMessage().startsWith("'"), e.getMessage());
        }
    }

    @Test
    void printsAsItIsWritten() {
        assertEquals("DNS:localhost", SubjectAltName.parse("dns:localhost").toString());
    }
}
