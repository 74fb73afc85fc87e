package mpi

// Local returns a group of size processes that live in this one: the
// goroutines that use its Comms stand for the processes, and a channel for
// each ordered pair keeps messages in order as MPI does. It runs the
// collective steps of a job without MPI, in tests. Messages are copied, as
// between processes.
func Local(size int) []Comm {
	w := &localWorld{size: size, links: make([][]chan []byte, size), bcast: make([]chan []byte, size)}
	for i := range size {
		w.links[i] = make([]chan []byte, size)
		for j := range size {
			w.links[i][j] = make(chan []byte, 64)
		}
		w.bcast[i] = make(chan []byte, 1)
	}
	comms := make([]Comm, size)
	for r := range size {
		comms[r] = localComm{w: w, rank: r}
	}
	return comms
}

// localWorld is the shared state of a Local group.
type localWorld struct {
	size  int
	links [][]chan []byte // links[from][to]
	bcast []chan []byte   // to each process from process 0
}

// localComm is one process of a Local group.
type localComm struct {
	w    *localWorld
	rank int
}

func (c localComm) Rank() int { return c.rank }
func (c localComm) Size() int { return c.w.size }

func (c localComm) Send(to int, data []byte) error {
	c.w.links[c.rank][to] <- append([]byte(nil), data...)
	return nil
}

func (c localComm) Recv(from int) ([]byte, error) { return <-c.w.links[from][c.rank], nil }

func (c localComm) Bcast(data []byte) ([]byte, error) {
	if c.rank == 0 {
		for i := 1; i < c.w.size; i++ {
			c.w.bcast[i] <- append([]byte(nil), data...)
		}
		return data, nil
	}
	return <-c.w.bcast[c.rank], nil
}

func (c localComm) Close() error { return nil }
