#include "docks/movers_dock.h"

#include "editor.h"
#include "services/mover_play.h"
#include "services/mover_states.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QToolButton>
#include <array>
#include <cmath>

namespace shallot {

namespace {

// The time a spin box may be set to (seconds) and the slider's span and steps: most
// doors and lifts run their cycle in a few seconds, trains in tens.
constexpr double kMaxSeconds = 3600.0;
constexpr double kSliderSeconds = 60.0;
constexpr int kSliderStepsPerSecond = 10;
constexpr int kMaxPlayAgents = 2000;

constexpr std::array<std::pair<MoverPlacement, const char*>, 5> kChoices{{{MoverPlacement::Spawn, "As spawned"},
                                                                          {MoverPlacement::Closed, "All closed"},
                                                                          {MoverPlacement::Open, "All open"},
                                                                          {MoverPlacement::Time, "At time"},
                                                                          {MoverPlacement::LeftOut, "Left out"}}};

} // namespace

MoversDock::MoversDock(Editor& editor, QWidget* window) : QDockWidget("Movers", window), editor_(editor) {
    setObjectName("MoversDock");
    auto* body = new QWidget(this);
    auto* grid = new QGridLayout(body);
    placement_ = new QComboBox(body);
    placement_->setObjectName("moverPlacement");
    for (const auto& [p, text] : kChoices) placement_->addItem(text, int(p));
    placement_->setToolTip("Where the doors, plats, trains and buttons stand: drawn there, and compiled there as walls for every "
                           "overlay. As spawned: where the game starts them (a plat without a name down, a START_OPEN door "
                           "open); closed and open: each one's first and last stop; at time: where the game's timing has them; "
                           "left out: not in the world at all (a door is a hole), as the game's world model is compiled");
    grid->addWidget(placement_, 0, 0, 1, 2);
    swept_ = new QAction("Swept", this);
    swept_->setObjectName("moverSwept");
    swept_->setCheckable(true);
    swept_->setToolTip("Ghost the volume every mover brush passes through (brown)");
    auto* sweptButton = new QToolButton(body);
    sweptButton->setDefaultAction(swept_);
    grid->addWidget(sweptButton, 0, 2);
    seconds_ = new QDoubleSpinBox(body);
    seconds_->setObjectName("moverSeconds");
    seconds_->setRange(0.0, kMaxSeconds);
    seconds_->setDecimals(2);
    seconds_->setSingleStep(1.0 / kSliderStepsPerSecond);
    seconds_->setSuffix(" s");
    seconds_->setToolTip("At time: seconds after the level starts, each mover kept going as the game runs it");
    grid->addWidget(seconds_, 1, 0);
    slider_ = new QSlider(Qt::Horizontal, body);
    slider_->setObjectName("moverSlider");
    slider_->setRange(0, int(kSliderSeconds * kSliderStepsPerSecond));
    slider_->setToolTip("Drag through the first minute: the movers follow as the game would move them");
    grid->addWidget(slider_, 1, 1, 1, 2);
    play_ = new QAction("Play", this);
    play_->setObjectName("play");
    play_->setCheckable(true);
    play_->setShortcut(QKeySequence("F5"));
    play_->setToolTip("Play (F5): time runs, the movers move as the game runs them and agents of the current pose walk "
                      "between random floors; again to stop (the movers go back)");
    window->addAction(play_);
    auto* playButton = new QToolButton(body);
    playButton->setDefaultAction(play_);
    grid->addWidget(playButton, 2, 0);
    agents_ = new QSpinBox(body);
    agents_->setObjectName("playAgents");
    agents_->setRange(0, kMaxPlayAgents);
    agents_->setValue(kDefaultPlayAgents);
    agents_->setSuffix(" agents");
    agents_->setToolTip("How many agents Play starts with");
    grid->addWidget(agents_, 2, 1);
    // Its own row, wrapped, never widening the dock: the views beside it would jump as
    // the counts grow while playing.
    playTime_ = new QLabel(body);
    playTime_->setObjectName("playTime");
    playTime_->setWordWrap(true);
    playTime_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    grid->addWidget(playTime_, 3, 0, 1, 3);
    grid->setRowStretch(4, 1);
    setWidget(body);

    connect(placement_, &QComboBox::currentIndexChanged, this, &MoversDock::choose);
    connect(seconds_, &QDoubleSpinBox::valueChanged, this, [this](double s) {
        const QSignalBlocker block(slider_), blockPlacement(placement_);
        slider_->setValue(int(std::lround(std::min(s, kSliderSeconds) * kSliderStepsPerSecond)));
        placement_->setCurrentIndex(placement_->findData(int(MoverPlacement::Time)));
        choose();
    });
    connect(slider_, &QSlider::valueChanged, this, [this](int v) { seconds_->setValue(double(v) / kSliderStepsPerSecond); });
    connect(swept_, &QAction::toggled, this, [this](bool on) { editor_.moverStates().setSweptShown(on); });
    connect(play_, &QAction::triggered, this, [this](bool on) {
        if (on) play_->setChecked(editor_.moverPlay().start(agents_->value()));
        else editor_.moverPlay().stop();
    });
    connect(&editor_.moverStates(), &MoverStates::changed, this, &MoversDock::follow);
    connect(&editor_.moverPlay(), &MoverPlay::playingChanged, this, [this](bool on) {
        play_->setChecked(on);
        showPlayTime();
    });
    connect(&editor_.moverPlay(), &MoverPlay::stepped, this, &MoversDock::showPlayTime);
    follow();
}

void MoversDock::follow() {
    const MoverStates& states = editor_.moverStates();
    const QSignalBlocker a(placement_), b(seconds_), c(slider_), d(swept_);
    placement_->setCurrentIndex(placement_->findData(int(states.placement())));
    // Set only when it differs: setting a spin box rewrites its text, which garbled a time
    // being typed in ("0.5" typed over "0.50" became 0: its "0" chose the time, whose echo
    // here rewrote the text before the "." and "5" came).
    if (seconds_->value() != states.seconds()) seconds_->setValue(states.seconds());
    slider_->setValue(int(std::lround(std::min(states.seconds(), kSliderSeconds) * kSliderStepsPerSecond)));
    swept_->setChecked(states.sweptShown());
}

void MoversDock::choose() {
    editor_.moverStates().setPlacement(MoverPlacement(placement_->currentData().toInt()), seconds_->value());
}

void MoversDock::showPlayTime() {
    const MoverPlay& play = editor_.moverPlay();
    QString text;
    if (play.playing()) {
        text = QString(" t = %1 s").arg(play.time(), 0, 'f', 1);
        // Fired as the game fires them: how many trips the touches and triggers began.
        if (play.fired()) text += QString(", %1 trips").arg(play.moverTrips());
        if (play.keysPickedUp()) text += QString(", %1 key%2 taken").arg(play.keysPickedUp()).arg(play.keysPickedUp() == 1 ? "" : "s");
        if (play.teleported()) text += QString(", %1 teleported").arg(play.teleported());
    }
    playTime_->setText(text);
}

} // namespace shallot
