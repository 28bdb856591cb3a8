// Numbers as text (core/world/number_text.h), shared by the .map writer, pose keys, entity
// origins and messages: shortest round trip in fixed notation, integers as digits, never "-0".
#include "world/number_text.h"

#include <charconv>
#include <cmath>
#include <random>

#include <gtest/gtest.h>

using namespace shallot;

TEST(NumberText, IntegersAreDigitsAndMinusZeroIsZero) {
    EXPECT_EQ(numberText(24.0), "24");
    EXPECT_EQ(numberText(-16.0), "-16");
    EXPECT_EQ(numberText(-0.0), "0");
    EXPECT_EQ(numberText(0.1), "0.1");
    EXPECT_EQ(numberText(9007199254740991.0), "9007199254740991"); // 2^53 - 1: digits
    EXPECT_EQ(numberText(1e17), "100000000000000000");             // past 2^53: still no exponent
    EXPECT_EQ(numberText(1.1607426131376997e-10), "0.00000000011607426131376997");
    EXPECT_EQ(numberText(-2.5e-7), "-0.00000025");
    std::string out = "x ";
    appendNumber(out, 1.5);
    EXPECT_EQ(out, "x 1.5");
}

TEST(NumberText, EveryDoubleReadsBackTheSame) {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> exponent(-30, 30);
    for (int i = 0; i < 10000; ++i) {
        const double v = (rng() % 2 ? -1 : 1) * std::pow(10.0, exponent(rng)) * double(rng() % 1000 + 1) / 7.0;
        const std::string text = numberText(v);
        double back = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), back);
        ASSERT_EQ(error, std::errc()) << text;
        EXPECT_EQ(end, text.data() + text.size());
        EXPECT_EQ(back, v) << text;
        EXPECT_EQ(text.find_first_of("eE"), std::string::npos) << text;
    }
}
