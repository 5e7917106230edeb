// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <ctime>

/// Measures how long the GUI thread goes without running its event loop: a precise 2 ms timer
/// notes the largest gap between two of its ticks while active (wall clock), and how much CPU
/// time the GUI thread itself used inside that gap (busy work, as opposed to the thread being
/// descheduled on a loaded machine).
class StallDetector : public QObject {
public:
    StallDetector()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(2);
        connect(&m_timer, &QTimer::timeout, this, [this]() {
            const qint64 now = m_clock.nsecsElapsed();
            const qint64 cpu = threadCpuNs();
            if (now - m_last > m_maxGapNs) {
                m_maxGapNs = now - m_last;
                m_cpuInMaxGapNs = cpu - m_lastCpu;
            }
            m_maxCpuGapNs = std::max(m_maxCpuGapNs, cpu - m_lastCpu);
            m_last = now;
            m_lastCpu = cpu;
            ++m_ticks;
        });
    }
    void start()
    {
        m_maxGapNs = m_cpuInMaxGapNs = m_maxCpuGapNs = 0;
        m_ticks = 0;
        m_clock.start();
        m_last = 0;
        m_lastCpu = threadCpuNs();
        m_timer.start();
    }
    void stop() { m_timer.stop(); }
    /// Longest wall-clock gap between ticks.
    double maxGapMs() const { return static_cast<double>(m_maxGapNs) / 1e6; }
    /// CPU time the GUI thread spent inside that longest gap.
    double cpuInMaxGapMs() const { return static_cast<double>(m_cpuInMaxGapNs) / 1e6; }
    /// Most CPU time the GUI thread spent between two ticks.
    double maxBusyMs() const { return static_cast<double>(m_maxCpuGapNs) / 1e6; }
    int ticks() const { return m_ticks; }

private:
    static qint64 threadCpuNs()
    {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return static_cast<qint64>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
    }

    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0, m_lastCpu = 0;
    qint64 m_maxGapNs = 0, m_cpuInMaxGapNs = 0, m_maxCpuGapNs = 0;
    int m_ticks = 0;
};
