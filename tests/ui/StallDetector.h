// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

/// Measures how long the GUI thread goes without running its event loop: a precise 2 ms timer
/// notes the largest gap between two of its ticks while active.
class StallDetector : public QObject {
public:
    StallDetector()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(2);
        connect(&m_timer, &QTimer::timeout, this, [this]() {
            const qint64 now = m_clock.nsecsElapsed();
            m_maxGapNs = std::max(m_maxGapNs, now - m_last);
            m_last = now;
            ++m_ticks;
        });
    }
    void start()
    {
        m_maxGapNs = 0;
        m_ticks = 0;
        m_clock.start();
        m_last = 0;
        m_timer.start();
    }
    void stop() { m_timer.stop(); }
    double maxGapMs() const { return static_cast<double>(m_maxGapNs) / 1e6; }
    int ticks() const { return m_ticks; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    qint64 m_maxGapNs = 0;
    int m_ticks = 0;
};
