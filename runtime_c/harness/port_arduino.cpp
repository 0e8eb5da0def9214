/*
 * Arduino port (stock PlatformIO platforms, e.g. nordicnrf52 / nano33ble): the protocol on Serial
 * (USB CDC on the Nano 33 BLE), timed with the Cortex-M DWT cycle counter.
 */
#include <Arduino.h>

#include "mcu_port.h"

#define REG(addr) (*(volatile uint32_t *)(addr))

static uint32_t dwt_high, dwt_last;

extern "C" void mcu_port_init(void)
{
    Serial.begin(115200);
    while (!Serial) {
    }
    REG(0xE000EDFC) |= 1u << 24; /* DEMCR.TRCENA */
    REG(0xE0001004) = 0;         /* DWT_CYCCNT */
    REG(0xE0001000) |= 1u;       /* DWT_CTRL.CYCCNTENA */
}

extern "C" int mcu_port_getc(void)
{
    while (Serial.available() <= 0) {
    }
    return Serial.read();
}

extern "C" void mcu_port_write(const uint8_t *data, uint32_t size)
{
    Serial.write(data, size);
}

extern "C" void mcu_port_flush(void)
{
    Serial.flush();
}

extern "C" uint64_t mcu_port_cycles(void)
{
    const uint32_t now = REG(0xE0001004);
    if (now < dwt_last) {
        ++dwt_high;
    }
    dwt_last = now;
    return (uint64_t)dwt_high << 32 | now;
}

extern "C" uint8_t mcu_port_clock_kind(void)
{
    return MCU_CLOCK_CYCLES;
}

void setup()
{
    mcu_port_init();
    mcu_harness_run();
}

void loop()
{
}
