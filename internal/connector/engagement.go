package connector

// Engagement adds up a post's reaction counts (likes, reposts, replies) as post.Engagement
// holds them. A count below zero (a Reddit score voted down) adds nothing: the post counts as
// not engaged with, rather than as less than that.
func Engagement(counts ...int64) int64 {
	var total int64
	for _, n := range counts {
		total += max(n, 0)
	}
	return total
}

// Followers is an author's follower count as post.AuthorFollowers holds it: never below zero.
func Followers(n int64) int64 { return max(n, 0) }
